"""float64 references for the activation family, naive and independent of the kernels.

Arguments follow the op defs.
"""
from __future__ import annotations

import math

import numpy as np

from .softmax.golden import softmax_golden  # noqa: F401  (moved beside its op)


def softmax_2d_golden(x, axis: int = 1) -> np.ndarray:
    """ONNX Softmax before opset 13: flatten to [prod(shape[:axis]), prod(shape[axis:])]
    and normalise each row of the 2-D view."""
    x = np.asarray(x, dtype=np.float64)
    axis = axis % max(x.ndim, 1)
    lead = int(np.prod(x.shape[:axis], dtype=np.int64))
    return softmax_golden(x.reshape(lead, -1), 1).reshape(x.shape)


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
