"""Elementwise-arithmetic kernel half: the numpy compute of each kernel (on
compute-typed arrays, attributes as keywords); the tile program and body builder are
the family-shared :func:`..common.kernel.tile_program` / :func:`..common.kernel.make_body`.

Formulas: Add a + alpha b (bool: a | (b & alpha)); Sub a - alpha b; Mul a b (bool:
a & b); Div a / b (true division, in float32/64); Relu max(x, 0).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)


def _add(a, b, alpha=1):
    if a.dtype == np.bool_:
        return a | (b & bool(alpha))
    return a + b if alpha == 1 else a + b * a.dtype.type(alpha)


def _sub(a, b, alpha=1):
    return a - b if alpha == 1 else a - b * a.dtype.type(alpha)


def _mul(a, b):
    return a & b if a.dtype == np.bool_ else a * b


def _relu(x):
    return np.maximum(x, x.dtype.type(0))


#: kernel -> numpy compute
ELEMENTWISE_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Add": _add,
    "Sub": _sub,
    "Mul": _mul,
    "Div": lambda a, b: a / b,
    "Relu": _relu,
}
