"""float64 reference for Softmax (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def softmax_golden(x, dim: int) -> np.ndarray:
    """Softmax along ``dim`` (one row at a time, max-subtracted)."""
    x = np.asarray(x, dtype=np.float64)
    if x.ndim == 0:
        return np.ones_like(x)
    xm = np.moveaxis(x, dim, -1)
    flat = xm.reshape(-1, xm.shape[-1])
    out = np.empty_like(flat)
    for r, row in enumerate(flat):
        e = np.exp(row - row.max())
        out[r] = e / e.sum()
    return np.moveaxis(out.reshape(xm.shape), -1, dim)
