"""aclDataType and aclFormat for the operators, and the dtype names cost formulas use.

The enums and their numpy mapping are ACL's (``acl_base.h``), defined in
:mod:`acl_runtime.acl_base` and re-exported here so ``opsnn.base.dtypes`` imports
keep working.
"""
from __future__ import annotations

from acl_runtime.acl_base import TO_NUMPY, aclDataType, aclFormat, from_numpy_dtype, to_numpy_dtype

#: names used in cost formulas (npu_sim.hardware.cost) for cube dtypes
DTYPE_NAME = {k: v.name for k, v in TO_NUMPY.items()}
DTYPE_NAME[aclDataType.ACL_BF16] = "bfloat16"


def dtype_name(code: int) -> str:
    """Short name ("float32", "float16", "bfloat16", ...) for traces and cost formulas."""
    return DTYPE_NAME[aclDataType(code)]


__all__ = ["aclDataType", "aclFormat", "to_numpy_dtype", "from_numpy_dtype", "DTYPE_NAME", "dtype_name"]
