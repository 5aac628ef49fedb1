"""float64 reference for Mean (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np

from ..common.golden import golden_axes


def mean_golden(x, dim, keep_dim: bool) -> np.ndarray:
    """Mean over ``dim`` (empty: all dims) in float64 (NaN over an empty axis)."""
    x = np.asarray(x, dtype=np.float64)
    ax = golden_axes(x, dim)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.mean(x, axis=ax, keepdims=keep_dim) if x.size else \
            np.full(np.sum(x, axis=ax, keepdims=keep_dim).shape, np.nan)
