"""float64 reference for LayerNorm (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def layer_norm_golden(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """float64 reference: returns (out, mean, rstd); mean/rstd shaped [A..., 1...]."""
    x = np.asarray(x, dtype=np.float64)
    j = len(normalized_shape)
    axes = tuple(range(x.ndim - j, x.ndim))
    mean = x.mean(axis=axes, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=axes, keepdims=True)
    rstd = 1.0 / np.sqrt(var + eps)
    y = (x - mean) * rstd
    if weight is not None:
        y = y * np.asarray(weight, dtype=np.float64)
    if bias is not None:
        y = y + np.asarray(bias, dtype=np.float64)
    return y, mean, rstd
