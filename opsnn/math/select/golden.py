"""float64 references for SWhere/Where, EqTensor/EqScalar and Equal (tests only),
naive and independent of the kernels; arguments in op_def order."""
from __future__ import annotations

import numpy as np


def _f(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64)


def where_golden(condition, self, other):
    return np.where(np.asarray(condition).astype(bool), _f(self), _f(other))


def eq_golden(self, other):
    return _f(self) == _f(other)


def equal_golden(self, other) -> bool:
    a, b = np.asarray(self), np.asarray(other)
    return a.shape == b.shape and bool(np.all(_f(a) == _f(b)))
