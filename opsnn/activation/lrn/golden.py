"""float64 reference for LRN (tests only); arguments in op_def order."""
from __future__ import annotations

import math

import numpy as np


def lrn_golden(x, size: int, alpha: float = 1e-4, beta: float = 0.75, bias: float = 1.0) -> np.ndarray:
    """ONNX LRN: for each channel c, sum x^2 over channels
    max(0, c - floor((size-1)/2)) .. min(C-1, c + ceil((size-1)/2)) (inclusive)."""
    x = np.asarray(x, dtype=np.float64)
    C = x.shape[1]
    lo, hi = math.floor((size - 1) / 2), math.ceil((size - 1) / 2)
    y = np.empty_like(x)
    for c in range(C):
        a, b = max(0, c - lo), min(C - 1, c + hi)
        ss = (x[:, a:b + 1] ** 2).sum(axis=1)
        y[:, c] = x[:, c] / (bias + alpha / size * ss) ** beta
    return y
