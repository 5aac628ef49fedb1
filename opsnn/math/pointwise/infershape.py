"""Pointwise-math shape inference (no status codes): Erf/Sqrt keep ``self``'s shape
and give a float dtype (FLOAT for integer or bool input); Pow and ClampTensor
broadcast; Clamp with scalar bounds keeps ``self``'s shape; dtypes promote."""
from __future__ import annotations

from ...base.dtypes import aclDataType as T
from ...base.promotion import is_float, promote_tensor_scalar, promote_types
from ..common.infershape import broadcast_shape, infer_binary, scalar_dtype

__all__ = ["infer_float_unary", "infer_binary", "infer_clamp", "infer_clamp_tensor"]


def infer_float_unary(x):
    """[(shape, dtype)] of Erf / Sqrt on ``x`` = (shape, dtype)."""
    return [(tuple(x[0]), x[1] if is_float(x[1]) else T.ACL_FLOAT)]


def infer_clamp(x, *bounds):
    """[(shape, dtype)] of Clamp on ``x`` = (shape, dtype) with scalar ``bounds``
    (None: no bound): ``x``'s shape, the tensor-scalar promotion of every bound."""
    dt = x[1]
    for b in bounds:
        if b is not None:
            dt = promote_tensor_scalar(dt, scalar_dtype(b))
    return [(tuple(x[0]), dt)]


def infer_clamp_tensor(x, *bounds):
    """[(shape, dtype)] of ClampTensor: broadcast of ``x`` and the non-None tensor
    ``bounds`` (each (shape, dtype)), promoted dtype."""
    given = [x] + [b for b in bounds if b is not None]
    dt = x[1]
    for b in given[1:]:
        dt = promote_types(dt, b[1])
    return [(broadcast_shape(*(s for s, _ in given)), dt)]
