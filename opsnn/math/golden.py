"""float64 references for the elementwise family (and the Gelu/Silu activations),
naive and independent of the kernels. Arguments follow the op defs; every result is
float64 (or bool for comparisons). Integer inputs are assumed small enough that
float64 is exact.
"""
from __future__ import annotations

import math

import numpy as np

_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def add_golden(self, other, alpha=1.0):
    return _f(self) + float(alpha) * _f(other)


def sub_golden(self, other, alpha=1.0):
    return _f(self) - float(alpha) * _f(other)


def mul_golden(self, other):
    return _f(self) * _f(other)


def div_golden(self, other):
    with np.errstate(all="ignore"):
        return _f(self) / _f(other)


def relu_golden(self):
    return np.where(_f(self) > 0, _f(self), 0.0)


def erf_golden(self):
    return _erf(_f(self))


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


def where_golden(condition, self, other):
    return np.where(np.asarray(condition).astype(bool), _f(self), _f(other))


def eq_golden(self, other):
    return _f(self) == _f(other)


def equal_golden(self, other) -> bool:
    a, b = np.asarray(self), np.asarray(other)
    return a.shape == b.shape and bool(np.all(_f(a) == _f(b)))


def cast_golden(self, to_kind: str):
    """Reference value of cast(self): ``to_kind`` "f" (float: the value itself), "i"
    (integer: truncated toward zero) or "b" (bool: nonzero)."""
    x = _f(self)
    if to_kind == "i":
        return np.trunc(x)
    if to_kind == "b":
        return x != 0
    return x
