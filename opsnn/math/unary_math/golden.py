"""float64 references of the unary math ops (tests only): numpy's float64 functions
(the kernels compute in float32; each result is compared at its dtype's tolerance)."""
from __future__ import annotations

import math

import numpy as np


def _f(x):
    return np.asarray(x, dtype=np.float64)


def _round_half_even(x):
    return np.vectorize(lambda v: float(round(v)) if math.isfinite(v) else v, otypes=[np.float64])(_f(x))


GOLDEN = {
    "Exp": lambda x: np.exp(_f(x)), "Log": lambda x: np.log(_f(x)), "Abs": lambda x: np.abs(_f(x)),
    "Neg": lambda x: -_f(x), "Reciprocal": lambda x: 1.0 / _f(x), "Rsqrt": lambda x: 1.0 / np.sqrt(_f(x)),
    "Floor": lambda x: np.floor(_f(x)), "Ceil": lambda x: np.ceil(_f(x)), "Round": _round_half_even,
    "Sign": lambda x: np.sign(_f(x)),
    "Sin": lambda x: np.sin(_f(x)), "Cos": lambda x: np.cos(_f(x)), "Tan": lambda x: np.tan(_f(x)),
    "Asin": lambda x: np.arcsin(_f(x)), "Acos": lambda x: np.arccos(_f(x)), "Atan": lambda x: np.arctan(_f(x)),
    "Sinh": lambda x: np.sinh(_f(x)), "Cosh": lambda x: np.cosh(_f(x)), "Asinh": lambda x: np.arcsinh(_f(x)),
    "Acosh": lambda x: np.arccosh(_f(x)), "Atanh": lambda x: np.arctanh(_f(x)),
    "IsNan": lambda x: _f(x) != _f(x), "IsInf": lambda x: np.abs(_f(x)) == np.inf,
    "IsPosInf": lambda x: _f(x) == np.inf, "IsNegInf": lambda x: _f(x) == -np.inf,
}
