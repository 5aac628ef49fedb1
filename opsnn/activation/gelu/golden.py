"""float64 references for Gelu (erf and tanh forms) and Silu (tests only), naive and
independent of the kernels; arguments in op_def order."""
from __future__ import annotations

import math

import numpy as np

_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def gelu_golden(self):
    """x * Phi(x), Phi the standard normal CDF = erfc(-x / sqrt 2) / 2 (erfc keeps the
    left tail accurate where 1 + erf cancels)."""
    x = _f(self)
    return x * 0.5 * _erfc(-x / math.sqrt(2.0))


def gelu_tanh_golden(self):
    """0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), with 1 + tanh(u) written
    as 2 / (1 + exp(-2u)) so that float64 does not cancel for x << 0."""
    x = _f(self)
    u = math.sqrt(2.0 / math.pi) * (x + 0.044715 * x ** 3)
    with np.errstate(over="ignore"):
        return 0.5 * x * (2.0 / (1.0 + np.exp(-2.0 * u)))


def silu_golden(self):
    x = _f(self)
    return x / (1.0 + np.exp(-x))
