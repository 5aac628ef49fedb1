"""DynamicQuantizeLinear shape inference: y like x in UINT8, yScale FLOAT 0-D,
yZeroPoint UINT8 0-D."""
from __future__ import annotations

from ...base.dtypes import aclDataType


def infer_shape(x_shape):
    """[(y), (yScale), (yZeroPoint)] as (shape, dtype)."""
    return [(tuple(x_shape), aclDataType.ACL_UINT8), ((), aclDataType.ACL_FLOAT), ((), aclDataType.ACL_UINT8)]
