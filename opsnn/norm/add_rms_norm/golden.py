"""float64 reference for AddRmsNorm (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def add_rms_norm_golden(x1, x2, gamma, epsilon=1e-6, x_dtype=None):
    """float64 (y, rstd, x) with x = x1 + x2 (rounded to ``x_dtype`` first when given:
    the kernel normalises the xOut it writes), rstd shaped [A..., 1...]."""
    x = np.asarray(x1, np.float64) + np.asarray(x2, np.float64)
    if x_dtype is not None:
        x = x.astype(x_dtype).astype(np.float64)
    g = np.asarray(gamma, np.float64)
    axes = tuple(range(x.ndim - g.ndim, x.ndim))
    rstd = 1.0 / np.sqrt((x * x).mean(axis=axes, keepdims=True) + epsilon)
    return x * rstd * g, rstd, x
