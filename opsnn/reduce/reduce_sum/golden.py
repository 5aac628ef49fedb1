"""float64 / exact-integer reference for ReduceSum (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np

from ..common.golden import golden_axes


def reduce_sum_golden(x, dim, keep_dim: bool, out_dtype) -> np.ndarray:
    """Sum over ``dim`` (empty: all dims) after casting ``x`` to ``out_dtype``: float
    results in float64; integer results exact, wrapped to ``out_dtype``."""
    x = np.asarray(x)
    od = np.dtype(out_dtype)
    ax = golden_axes(x, dim)
    if od.kind in "iu":
        return np.sum(x.astype(od).astype(np.int64), axis=ax, keepdims=keep_dim).astype(od)
    return np.sum(x.astype(od).astype(np.float64), axis=ax, keepdims=keep_dim)
