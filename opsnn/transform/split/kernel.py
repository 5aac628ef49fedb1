"""Split kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def split_fn(sizes, axis: int):
    """``fn(x) -> pieces``: ``x`` cut along ``axis`` into ``sizes``."""
    cuts = np.cumsum(sizes)[:-1]

    def fn(x):
        return np.split(x, cuts, axis=axis)
    return fn
