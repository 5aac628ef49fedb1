"""float64 references for the reduce family (arguments in op_def order)."""
from __future__ import annotations

import numpy as np


def _axes(x: np.ndarray, dim) -> tuple[int, ...] | None:
    if x.ndim == 0:
        return None
    return tuple(d % x.ndim for d in dim) if len(dim) else tuple(range(x.ndim))


def reduce_sum_golden(x, dim, keep_dim: bool, out_dtype) -> np.ndarray:
    """Sum over ``dim`` (empty: all dims) after casting ``x`` to ``out_dtype``: float
    results in float64; integer results exact, wrapped to ``out_dtype``."""
    x = np.asarray(x)
    od = np.dtype(out_dtype)
    ax = _axes(x, dim)
    if od.kind in "iu":
        return np.sum(x.astype(od).astype(np.int64), axis=ax, keepdims=keep_dim).astype(od)
    return np.sum(x.astype(od).astype(np.float64), axis=ax, keepdims=keep_dim)


def mean_golden(x, dim, keep_dim: bool) -> np.ndarray:
    """Mean over ``dim`` (empty: all dims) in float64 (NaN over an empty axis)."""
    x = np.asarray(x, dtype=np.float64)
    ax = _axes(x, dim)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.mean(x, axis=ax, keepdims=keep_dim) if x.size else \
            np.full(np.sum(x, axis=ax, keepdims=keep_dim).shape, np.nan)
