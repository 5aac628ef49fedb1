"""float64 reference for RmsNorm (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def rms_norm_golden(x, gamma, eps=1e-6):
    """float64 reference: returns (y, rstd) with rstd shaped [A..., 1...]."""
    x = np.asarray(x, dtype=np.float64)
    g = np.asarray(gamma, dtype=np.float64)
    axes = tuple(range(x.ndim - g.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((x * x).mean(axis=axes, keepdims=True) + eps)
    return x * rstd * g, rstd
