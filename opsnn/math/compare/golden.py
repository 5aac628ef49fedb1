"""float64 references of the comparisons (tests only)."""
from __future__ import annotations

import operator

import numpy as np

_OPS = {"Gt": operator.gt, "Ge": operator.ge, "Lt": operator.lt, "Le": operator.le, "Ne": operator.ne}


def compare_golden(kernel: str, a, b) -> np.ndarray:
    """``a <op> b`` elementwise in float64 (integers beyond 2**53 compare as int64)."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iub" and np.asarray(b).dtype.kind in "iub":
        return _OPS[kernel](a.astype(np.int64), np.asarray(b).astype(np.int64))
    return _OPS[kernel](a.astype(np.float64), np.asarray(b, dtype=np.float64))
