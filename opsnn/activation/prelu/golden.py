"""float64 reference of PRelu (tests only); ``weight`` as CANN gives it (1-D over the
channel dim 1 of a rank >= 2 ``self``, one element, or numpy-broadcastable)."""
from __future__ import annotations

import numpy as np


def prelu_golden(self, weight):
    x, w = np.asarray(self, np.float64), np.asarray(weight, np.float64)
    if w.ndim == 1 and x.ndim >= 2 and w.size == x.shape[1] and w.size != 1:
        w = w.reshape((1, -1) + (1,) * (x.ndim - 2))
    return np.where(x >= 0, x, w * x)
