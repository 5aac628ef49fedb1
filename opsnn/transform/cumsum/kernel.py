"""Cumsum kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def cumsum_fn(axis: int, exclusive: bool, reverse: bool, acc_dtype):
    """Running sum along ``axis`` in ``acc_dtype`` (float32 for floats), optionally
    exclusive (shifted by one, 0 first) and/or from the end."""
    def fn(x):
        a = x.astype(acc_dtype)
        if reverse:
            a = np.flip(a, axis)
        c = np.cumsum(a, axis=axis, dtype=acc_dtype)
        if exclusive:
            c = np.concatenate([np.zeros_like(np.take(c, [0], axis=axis)), np.delete(c, -1, axis=axis)], axis=axis)
        if reverse:
            c = np.flip(c, axis)
        return [c]
    return fn
