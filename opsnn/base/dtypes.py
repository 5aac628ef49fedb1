"""aclDataType and aclFormat codes (CANN acl_base.h; DESIGN.md section 5) and numpy mapping.

bfloat16 comes from ml_dtypes.
"""
from __future__ import annotations

from enum import IntEnum

import ml_dtypes
import numpy as np


class aclDataType(IntEnum):  # noqa: N801 (CANN spelling)
    ACL_FLOAT = 0
    ACL_FLOAT16 = 1
    ACL_INT8 = 2
    ACL_INT32 = 3
    ACL_UINT8 = 4
    ACL_INT16 = 6
    ACL_INT64 = 9
    ACL_DOUBLE = 11
    ACL_BOOL = 12
    ACL_BF16 = 27


class aclFormat(IntEnum):  # noqa: N801
    ACL_FORMAT_NCHW = 0
    ACL_FORMAT_NHWC = 1
    ACL_FORMAT_ND = 2


_TO_NP = {
    aclDataType.ACL_FLOAT: np.dtype(np.float32),
    aclDataType.ACL_FLOAT16: np.dtype(np.float16),
    aclDataType.ACL_INT8: np.dtype(np.int8),
    aclDataType.ACL_INT32: np.dtype(np.int32),
    aclDataType.ACL_UINT8: np.dtype(np.uint8),
    aclDataType.ACL_INT16: np.dtype(np.int16),
    aclDataType.ACL_INT64: np.dtype(np.int64),
    aclDataType.ACL_DOUBLE: np.dtype(np.float64),
    aclDataType.ACL_BOOL: np.dtype(np.bool_),
    aclDataType.ACL_BF16: np.dtype(ml_dtypes.bfloat16),
}
_FROM_NP = {v: k for k, v in _TO_NP.items()}

#: names used in cost formulas (npu_sim.hardware.cost) for cube dtypes
DTYPE_NAME = {k: v.name for k, v in _TO_NP.items()}
DTYPE_NAME[aclDataType.ACL_BF16] = "bfloat16"


def to_numpy_dtype(code: int) -> np.dtype:
    """numpy dtype for an aclDataType code; raises ValueError for an unknown code."""
    try:
        return _TO_NP[aclDataType(code)]
    except (ValueError, KeyError):
        raise ValueError(f"unknown aclDataType {code!r}") from None


def from_numpy_dtype(dtype) -> aclDataType:
    """aclDataType for a numpy dtype; raises ValueError if there is none."""
    dt = np.dtype(dtype)
    if dt not in _FROM_NP:
        raise ValueError(f"no aclDataType for numpy dtype {dt}")
    return _FROM_NP[dt]


def dtype_name(code: int) -> str:
    """Short name ("float32", "float16", "bfloat16", ...) for traces and cost formulas."""
    return DTYPE_NAME[aclDataType(code)]
