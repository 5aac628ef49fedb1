"""References of the logical and bitwise ops (tests only): Python integers and
bools, elementwise (exact)."""
from __future__ import annotations

import numpy as np


def _b(x):
    return np.asarray(x) != 0


GOLDEN = {
    "LogicalAnd": lambda a, b: _b(a) & _b(b), "LogicalOr": lambda a, b: _b(a) | _b(b),
    "LogicalXor": lambda a, b: _b(a) ^ _b(b), "LogicalNot": lambda a: ~_b(a),
    "BitwiseAndTensor": lambda a, b: np.asarray(a).astype(np.int64) & np.asarray(b).astype(np.int64),
    "BitwiseOrTensor": lambda a, b: np.asarray(a).astype(np.int64) | np.asarray(b).astype(np.int64),
    "BitwiseXorTensor": lambda a, b: np.asarray(a).astype(np.int64) ^ np.asarray(b).astype(np.int64),
    "BitwiseNot": lambda a: ~np.asarray(a).astype(np.int64) if np.asarray(a).dtype != np.bool_ else ~np.asarray(a),
}
