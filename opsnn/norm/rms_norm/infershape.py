"""RmsNorm shape inference: yOut has x's shape and dtype; rstdOut is fp32 of shape
[A1..Ai, 1..1] (one 1 per gamma axis; [A1..Ai] is accepted too, ``op_api``)."""
from __future__ import annotations

from ...base.dtypes import aclDataType


def rstd_shape(x_shape: tuple[int, ...], gamma_shape: tuple[int, ...]) -> tuple[int, ...]:
    """[A1..Ai, 1..1] for x [A1..Ai, R1..Rj] and gamma [R1..Rj]."""
    j = len(gamma_shape)
    return tuple(x_shape[:len(x_shape) - j]) + (1,) * j


def infer_shape(x_shape: tuple[int, ...], x_dtype, gamma_shape: tuple[int, ...]):
    """[(yOut shape, dtype), (rstdOut shape, dtype)] = [(x's), ([A.., 1..], FLOAT)]."""
    return [(tuple(x_shape), x_dtype), (rstd_shape(x_shape, gamma_shape), aclDataType.ACL_FLOAT)]
