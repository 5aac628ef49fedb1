"""Unary-math kernel half: the numpy compute of each kernel on compute-typed arrays
(float32 for 16-bit floats and for integers where the result is float); tile
program and body builder from :mod:`..common.kernel`.

Floor/Ceil/Round of an integer are the identity; Round rounds half to even (as
torch.round, which aclnnRound implements, and ONNX Round); Sign is -1/0/1 (NaN
stays NaN); Log/Rsqrt/Asin/Acos/Acosh/Atanh give NaN or inf outside their domain,
as the hardware does.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)


def _keep_int(f):
    return lambda x: x.copy() if x.dtype.kind in "iub" else f(x)


#: kernel -> numpy compute
UNARY_MATH_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Exp": np.exp, "Log": np.log, "Abs": np.abs, "Neg": np.negative,
    "Reciprocal": lambda x: x.dtype.type(1) / x, "Rsqrt": lambda x: x.dtype.type(1) / np.sqrt(x),
    "Floor": _keep_int(np.floor), "Ceil": _keep_int(np.ceil), "Round": _keep_int(np.round),
    "Sign": np.sign,
    "Sin": np.sin, "Cos": np.cos, "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos, "Atan": np.arctan,
    "Sinh": np.sinh, "Cosh": np.cosh, "Asinh": np.arcsinh, "Acosh": np.arccosh, "Atanh": np.arctanh,
    "IsNan": np.isnan, "IsInf": np.isinf,
    "IsPosInf": np.isposinf, "IsNegInf": np.isneginf,
}
