"""float64 reference for GroupNorm (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def group_norm_golden(x, gamma, beta, group, eps=1e-5):
    """float64 reference: x [N, C, *spatial] -> (out, mean [N, group], rstd [N, group]),
    biased variance (kernel.py)."""
    x = np.asarray(x, dtype=np.float64)
    n, c = x.shape[0], x.shape[1]
    xg = x.reshape(n, group, -1)
    mean = xg.mean(axis=2)
    var = ((xg - mean[..., None]) ** 2).mean(axis=2)
    rstd = 1.0 / np.sqrt(var + eps)
    y = ((xg - mean[..., None]) * rstd[..., None]).reshape(x.shape)
    bshape = (1, c) + (1,) * (x.ndim - 2)
    y = y * np.asarray(gamma, np.float64).reshape(bshape) + np.asarray(beta, np.float64).reshape(bshape)
    return y, mean, rstd
