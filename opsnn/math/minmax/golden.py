"""References of Maximum, Minimum, Remainder and Fmod (tests only): float64 for
floats, Python integers (exact) for integers, written from the definitions."""
from __future__ import annotations

import math

import numpy as np


def _pair(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype.kind in "iub" and b.dtype.kind in "iub":
        return a.astype(np.int64), b.astype(np.int64), True
    return a.astype(np.float64), b.astype(np.float64), False


def _elementwise(f, a, b):
    a, b, is_int = _pair(a, b)
    a, b = np.broadcast_arrays(a, b)
    out = np.array([f(int(x) if is_int else float(x), int(y) if is_int else float(y))
                    for x, y in zip(a.ravel(), b.ravel())], dtype=np.int64 if is_int else np.float64)
    return out.reshape(a.shape)


def _nan_max(x, y):
    return math.nan if math.isnan(x) or math.isnan(y) else max(x, y)


def _nan_min(x, y):
    return math.nan if math.isnan(x) or math.isnan(y) else min(x, y)


def _floor_mod(x, y):
    if isinstance(x, int):
        return 0 if y == 0 else x - y * (x // y)
    return x - y * math.floor(x / y) if y != 0 else math.nan


def _c_fmod(x, y):
    if isinstance(x, int):
        return 0 if y == 0 else int(math.copysign(abs(x) % abs(y), x))
    return math.fmod(x, y) if y != 0 else math.nan


GOLDEN = {
    "Maximum": lambda a, b: _elementwise(_nan_max, a, b), "Minimum": lambda a, b: _elementwise(_nan_min, a, b),
    "Remainder": lambda a, b: _elementwise(_floor_mod, a, b), "Fmod": lambda a, b: _elementwise(_c_fmod, a, b),
}
