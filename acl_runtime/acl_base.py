"""ACL data types and formats: ``aclDataType``, ``aclFormat`` and their numpy dtypes.

CANN declares both enums in ``acl_base.h`` (AscendCL, shared by the runtime and by
the aclnn operators); codes here are CANN's (DESIGN.md section 5). The runtime
needs them for ``acl.util.ptr_to_numpy`` (pyACL takes an int type code) and for
the Pythonic layer's dtype checks, so they live at this level; ``opsnn.base.dtypes``
re-exports them. bfloat16 comes from ml_dtypes.
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
    ACL_FORMAT_NC1HWC0 = 3     #: 5-D [N, C1, H, W, C0] (CANN aclFormat value 3)
    ACL_FORMAT_FRACTAL_Z = 4   #: convolution weights [C1*kh*kw, N1, N0, C0] (CANN value 4)


#: aclDataType -> numpy dtype
TO_NUMPY = {
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
#: numpy dtype -> aclDataType
FROM_NUMPY = {v: k for k, v in TO_NUMPY.items()}


def to_numpy_dtype(code: int) -> np.dtype:
    """numpy dtype for an aclDataType code; raises ValueError for an unknown code."""
    try:
        return TO_NUMPY[aclDataType(code)]
    except (ValueError, KeyError):
        raise ValueError(f"unknown aclDataType {code!r}") from None


def from_numpy_dtype(dtype) -> aclDataType:
    """aclDataType for a numpy dtype; raises ValueError if there is none (TypeError if
    ``dtype`` is not a numpy dtype at all)."""
    dt = np.dtype(dtype)
    if dt not in FROM_NUMPY:
        raise ValueError(f"no aclDataType for numpy dtype {dt}")
    return FROM_NUMPY[dt]


__all__ = ["aclDataType", "aclFormat", "TO_NUMPY", "FROM_NUMPY", "to_numpy_dtype", "from_numpy_dtype"]
