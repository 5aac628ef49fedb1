"""OneHot kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def one_hot_fn(num_classes: int, axis: int):
    """out = on where index == class else off; indices outside [0, numClasses) give
    all ``off`` (CANN's rule)."""
    def fn(idx, on, off):
        idx = idx.astype(np.int64)
        hot = idx[..., None] == np.arange(num_classes)
        out = np.where(hot, on.reshape(-1)[0], off.reshape(-1)[0])
        return [np.moveaxis(out, -1, axis if axis != -1 else -1)]
    return fn
