"""float64 references of LogSoftmax and Hardmax (tests only)."""
from __future__ import annotations

import numpy as np


def log_softmax_golden(x, dim):
    x = np.asarray(x, np.float64).reshape(np.shape(x) or (1,))
    m = x.max(axis=dim, keepdims=True)
    return x - m - np.log(np.exp(x - m).sum(axis=dim, keepdims=True))


def hardmax_golden(x, dim):
    x = np.asarray(x, np.float64).reshape(np.shape(x) or (1,))
    first = np.argmax(x, axis=dim)
    out = np.zeros_like(x)
    np.put_along_axis(out, np.expand_dims(first, dim), 1.0, axis=dim)
    return out
