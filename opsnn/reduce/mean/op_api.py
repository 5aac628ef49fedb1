"""aclnnMean entry points (the shared host is :mod:`opsnn.reduce.common.host`).

CANN prototype (aclnn_mean.h):
  aclnnMeanGetWorkspaceSize(self, dim, keepDim, dtype, out, workspaceSize, executor)
  aclnnMean(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: FLOAT, FLOAT16, BF16. ND, 0-8 dims; non-contiguous views through the shared
    Contiguous copy (``out``: ViewCopy).
  dim: aclIntArray of distinct axes in [-rank, rank) (a 0-D self counts as rank 1);
    empty means every axis.
  keepDim: bool; reduced axes stay as size 1 when true.
  dtype: aclDataType of the result, FLOAT, FLOAT16 or BF16; ``self`` is cast to it
    before reducing.
  out: dtype ``dtype``; shape self's with the reduced axes removed (or 1 with keepDim).
Status: 161001 null self/dim/out; 161002 not a tensor, dtype, dim, keepDim or out
shape/dtype mismatch.
Numbers: accumulates in fp32 (16-bit inputs cast up first), divides by the reduced
count and rounds once; a mean over an empty axis is NaN (a fill kernel). An empty
``out`` prepares no kernel.
"""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16
from ...base.op import execute, prepare
from ..common.host import build


def aclnnMeanGetWorkspaceSize(self, dim, keepDim, dtype, out):  # noqa: N802,N803
    """Phase 1 of out = mean(self.to(dtype), dim, keepDim) (module doc). Returns
    ``(workspace_size, executor, status)``; 161001 null, 161002 invalid argument."""
    return prepare("Mean", lambda chip: build(chip, "aclnnMean", self, dim, keepDim, dtype, out,
                                              self_types=FLOAT_TYPES_BF16, out_types=FLOAT_TYPES_BF16, mean=True))


def aclnnMean(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Mean: bind addresses and enqueue on ``stream``."""
    return execute("Mean", workspace, workspaceSize, executor, stream)
