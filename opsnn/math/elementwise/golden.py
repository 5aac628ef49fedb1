"""float64 references for Add, Sub, Mul, Div and Relu (tests only), naive and
independent of the kernels; arguments in op_def order."""
from __future__ import annotations

import numpy as np


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
