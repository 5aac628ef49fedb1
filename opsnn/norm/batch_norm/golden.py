"""float64 reference for BatchNorm inference (tests only)."""
from __future__ import annotations

import numpy as np


def batch_norm_inference_golden(x, mean, var, weight=None, bias=None, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * weight + bias, per channel (dim 1), in float64."""
    x = np.asarray(x, dtype=np.float64)
    shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
    c = x.shape[1]
    w = np.ones(c) if weight is None else np.asarray(weight, dtype=np.float64)
    b = np.zeros(c) if bias is None else np.asarray(bias, dtype=np.float64)
    m = np.asarray(mean, dtype=np.float64).reshape(shape)
    v = np.asarray(var, dtype=np.float64).reshape(shape)
    return (x - m) / np.sqrt(v + eps) * w.reshape(shape) + b.reshape(shape)
