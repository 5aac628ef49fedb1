"""ArgMax / ArgMin kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def arg_fn(is_max: bool, axis: int, keepdim: bool):
    """INT64 index of the first max (min) along ``axis``."""
    def fn(x):
        if x.ndim == 0:
            return [np.zeros((), np.int64)]
        r = (np.argmax if is_max else np.argmin)(x, axis=axis)
        return [np.expand_dims(r, axis) if keepdim else r]
    return fn
