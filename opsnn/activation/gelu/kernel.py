"""Gelu/Silu kernel half: the numpy compute of each kernel (compute-typed arrays);
tile program and body builder from :mod:`opsnn.math.common.kernel`.

Formulas: Gelu x Phi(x), Phi(x) = erfc(-x / sqrt 2) / 2 (no cancellation in the left
tail); GeluV2 tanh form 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3),
evaluated as x / (1 + exp(-2u)); Silu x / (1 + exp(-x)).
"""
from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ...math.common.kernel import make_body, special, tile_program  # noqa: F401  (the family's kernel half)
from ...math.pointwise.kernel import special_exact

_SQRT1_2 = 1.0 / math.sqrt(2.0)
_GELU_K = math.sqrt(2.0 / math.pi)
_ERFC = np.frompyfunc(math.erfc, 1, 1)


def _gelu(x):
    # x * Phi(x) with Phi = erfc(-x / sqrt 2) / 2: no cancellation in the left tail
    return x * x.dtype.type(0.5) * special_exact(_ERFC, "erfc", -x * x.dtype.type(_SQRT1_2))


def _gelu_tanh(x):
    # 0.5 x (1 + tanh(u)) == x / (1 + exp(-2u)), the form that does not cancel for x << 0
    t = x.dtype.type
    u = t(2 * _GELU_K) * (x + t(0.044715) * x * x * x)
    return x / (t(1) + np.exp(-u))


def _silu(x):
    return x / (x.dtype.type(1) + np.exp(-x))


#: kernel -> numpy compute
GELU_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Gelu": _gelu,
    "GeluV2Tanh": _gelu_tanh,
    "Silu": _silu,
}
