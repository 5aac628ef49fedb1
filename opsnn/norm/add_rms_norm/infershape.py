"""AddRmsNorm shape inference: yOut and xOut have x1's shape and dtype; rstdOut is
fp32 of shape [A1..Ai, 1..1] (one 1 per gamma axis; [A1..Ai] is accepted too)."""
from __future__ import annotations

from ...base.dtypes import aclDataType


def rstd_shape(x_shape, gamma_shape) -> tuple[int, ...]:
    """[A1..Ai, 1..1] for x [A1..Ai, R1..Rj] and gamma [R1..Rj]."""
    j = len(gamma_shape)
    return tuple(x_shape[:len(x_shape) - j]) + (1,) * j


def infer_shape(x_shape, x_dtype, gamma_shape):
    """[(yOut), (rstdOut), (xOut)] as (shape, dtype) pairs."""
    return [(tuple(x_shape), x_dtype), (rstd_shape(x_shape, gamma_shape), aclDataType.ACL_FLOAT),
            (tuple(x_shape), x_dtype)]
