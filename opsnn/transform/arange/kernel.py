"""Arange kernel half: the tile program (shared ``move_spec``) and the numpy body."""
from __future__ import annotations

import numpy as np

from ..common.move_kernel import move_spec as tile_program  # noqa: F401 (the kernel's tile program)


def arange_fn(start, step, length: int, np_dtype):
    """out[i] = start + i * step, computed in float64 (int64 for integer outputs), then cast."""
    def fn():
        if np.dtype(np_dtype).kind in "iu" and all(float(v).is_integer() for v in (start, step)):
            return [int(start) + np.arange(length, dtype=np.int64) * int(step)]
        return [float(start) + np.arange(length, dtype=np.float64) * float(step)]
    return fn
