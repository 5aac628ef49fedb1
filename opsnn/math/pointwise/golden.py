"""float64 references for Erf, Sqrt, Pow and Clamp (tests only), naive and
independent of the kernels; arguments in op_def order."""
from __future__ import annotations

import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def erf_golden(self):
    return _erf(_f(self))


def sqrt_golden(self):
    with np.errstate(invalid="ignore"):
        return np.sqrt(_f(self))


def pow_golden(self, exponent):
    with np.errstate(all="ignore"):
        return np.power(_f(self), _f(exponent))


def clamp_golden(self, lo=None, hi=None):
    """min(max(x, lo), hi) with None meaning no bound (hi wins when lo > hi)."""
    x = _f(self)
    if lo is not None:
        x = np.maximum(x, _f(lo))
    if hi is not None:
        x = np.minimum(x, _f(hi))
    return x
