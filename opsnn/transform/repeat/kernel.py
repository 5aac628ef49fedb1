"""Repeat kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def repeat_fn(repeats):
    """``fn(x) -> [out]``: numpy.tile with ``repeats`` (left-padding x's shape)."""
    def fn(x):
        return [np.tile(x, tuple(repeats))]
    return fn
