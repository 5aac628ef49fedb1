"""aclnnReduceSum entry points (the shared host is :mod:`opsnn.reduce.common.host`).

CANN prototype (aclnn_reduce_sum.h):
  aclnnReduceSumGetWorkspaceSize(self, dim, keepDim, dtype, out, workspaceSize, executor)
  aclnnReduceSum(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: FLOAT, FLOAT16, BF16, INT8, UINT8, INT32, INT64, BOOL. ND, 0-8 dims; a
    non-contiguous view goes through the shared Contiguous copy first (a
    non-contiguous ``out`` through a ViewCopy after).
  dim: aclIntArray (or int sequence) of distinct axes in [-rank, rank) (a 0-D self
    counts as rank 1); empty means every axis (assumption: torch's sum(dim=[])).
  keepDim: bool; reduced axes stay as size 1 when true.
  dtype: aclDataType of the result, FLOAT, FLOAT16, BF16, INT8, UINT8, INT32 or
    INT64; ``self`` is cast to it before reducing (as torch's ``dtype=`` argument). A
    float ``self`` with an integer ``dtype`` is refused (the conversion rule never
    casts float to integer).
  out: dtype ``dtype``; shape self's with the reduced axes removed (or 1 with keepDim).
Status: 161001 null self/dim/out; 161002 not a tensor, dtype, dim (range, duplicate,
not integers), keepDim not a bool or out shape/dtype mismatch.
Numbers: float results accumulate in fp32 (16-bit inputs cast up first) and round
once; integer results are exact and wrap to the output width; a sum over an empty
axis is 0 (a fill kernel). An empty ``out`` prepares no kernel.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.host import build

SUM_SELF_TYPES = FLOAT_TYPES_BF16 + (T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32, T.ACL_INT64, T.ACL_BOOL)
SUM_OUT_TYPES = FLOAT_TYPES_BF16 + (T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32, T.ACL_INT64)


def aclnnReduceSumGetWorkspaceSize(self, dim, keepDim, dtype, out):  # noqa: N802,N803
    """Phase 1 of out = sum(self.to(dtype), dim, keepDim) (module doc). Returns
    ``(workspace_size, executor, status)``; 161001 null, 161002 invalid argument."""
    return prepare("ReduceSum", lambda chip: build(chip, "aclnnReduceSum", self, dim, keepDim, dtype, out,
                                                   self_types=SUM_SELF_TYPES, out_types=SUM_OUT_TYPES, mean=False))


def aclnnReduceSum(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ReduceSum: bind addresses and enqueue on ``stream``."""
    return execute("ReduceSum", workspace, workspaceSize, executor, stream)
