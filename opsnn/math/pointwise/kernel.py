"""Pointwise-math kernel half: the numpy compute of each kernel (compute-typed
arrays, attributes as keywords); tile program and body builder from
:mod:`..common.kernel`.

Formulas: Erf erf(x) (float64-evaluated, rounded once); Sqrt sqrt(x) (NaN below 0);
Pow a ** b (integers exact; an integer to a negative power is 1 for base 1, +-1 for
base -1, else 0, as torch); Clamp min(max(x, lo), hi), either bound optional (hi
wins when lo > hi).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..common.kernel import make_body, special, tile_program  # noqa: F401  (the family's kernel half)

_ERF = np.frompyfunc(math.erf, 1, 1)


def erf_compute(x: np.ndarray) -> np.ndarray:
    """erf in ``x``'s dtype (evaluated in float64 and rounded once)."""
    return special(_ERF, x)


def _pow(a, b):
    if a.dtype.kind not in "iu":
        return np.power(a, b)
    neg = b < 0
    r = np.power(a, np.where(neg, 0, b).astype(a.dtype))
    if np.any(neg):  # integer to a negative power: 1, (-1)^|b|, else 0 (torch semantics)
        odd = (np.abs(b) % 2).astype(bool)
        small = np.where(a == 1, 1, np.where(a == -1, np.where(odd, -1, 1), 0)).astype(a.dtype)
        r = np.where(neg, small, r)
    return r


def _clamp(x, lo=None, hi=None):
    if lo is not None:
        x = np.maximum(x, lo)
    if hi is not None:
        x = np.minimum(x, hi)
    return x


#: kernel -> numpy compute
POINTWISE_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Erf": erf_compute,
    "Sqrt": np.sqrt,
    "Pow": _pow,
    "Clamp": _clamp,
    "ClampHi": lambda x, hi: np.minimum(x, hi),
}
