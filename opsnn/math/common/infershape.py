"""Shape and dtype inference shared by the elementwise families (no status codes)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from ...base.dtypes import aclDataType as T
from ...base.promotion import promote_tensor_scalar, promote_types
from ...base.tensor import aclScalar

#: CANN's limit on the rank of elementwise operands
MAX_DIMS = 8


def broadcast_shape(*shapes: Sequence[int]) -> tuple[int, ...] | None:
    """numpy broadcast of ``shapes``, or None if they do not broadcast."""
    try:
        return tuple(np.broadcast_shapes(*(tuple(s) for s in shapes)))
    except ValueError:
        return None


def numel(shape: Sequence[int]) -> int:
    """Elements of ``shape`` (1 for a 0-D shape)."""
    return int(np.prod(tuple(shape), dtype=np.int64))


def scalar_dtype(v) -> T | None:
    """aclDataType of an aclScalar, or of a plain Python number (bool -> BOOL,
    int -> INT64, float -> FLOAT); None for anything else."""
    if isinstance(v, aclScalar):
        return v.data_type
    if isinstance(v, (bool, np.bool_)):
        return T.ACL_BOOL
    if isinstance(v, (int, np.integer)):
        return T.ACL_INT64
    if isinstance(v, (float, np.floating)):
        return T.ACL_FLOAT
    return None


def infer_binary(a, b, *, scalar: bool = False):
    """[(broadcast shape, promoted dtype)] of a binary op on ``a`` = (shape, dtype) and
    ``b`` = (shape, dtype), or ``b`` a scalar value (``scalar``: tensor-scalar promotion,
    result shape ``a``'s)."""
    if scalar:
        return [(tuple(a[0]), promote_tensor_scalar(a[1], scalar_dtype(b)))]
    return [(broadcast_shape(a[0], b[0]), promote_types(a[1], b[1]))]


def infer_same(x):
    """[(shape, dtype)] of a unary op whose output is its input's shape and dtype."""
    return [(tuple(x[0]), x[1])]
