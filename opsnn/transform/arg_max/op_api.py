"""aclnnArgMax / aclnnArgMin: the index of the largest / smallest element along one axis.

CANN prototypes (aclnn_argmax.h, aclnn_argmin.h):
  aclnnArgMaxGetWorkspaceSize(self, dim, keepdim, out, workspaceSize, executor)
  aclnnArgMinGetWorkspaceSize(self, dim, keepdim, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64; 0-8 dims, not empty.
  dim: int64 in [-rank, rank). keepdim: keep ``dim`` with size 1.
  out: INT64 (INT32 also accepted), self's shape without dim (or with it as 1).
Ties: the first index (ONNX select_last_index = 0).
Status: 161001 null; 161002 not a tensor, dtype, empty self, dim, out dtype or shape.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, norm_dim
from .infershape import arg_shape
from .kernel import arg_fn
from .tiling import arg_tiling

TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT16, T.ACL_INT32,
         T.ACL_INT64)


def _build(chip, name, self, dim, keepdim, out):
    op = f"aclnn{name}"
    check_not_null(op, self=self, dim=dim, keepdim=keepdim, out=out)
    check_tensor_type(op, self=self, out=out)
    check_dtype(op, "self", self, TYPES)
    check_dtype(op, "out", out, (T.ACL_INT64, T.ACL_INT32))
    shape = tuple(self.view_shape)
    if len(shape) > 8:
        raise invalid(op, f"self must be at most 8-D, got shape {list(shape)}")
    axis = norm_dim(op, dim, len(shape))
    if self.numel == 0:
        raise invalid(op, f"self {list(shape)} is empty: no {name[3:].lower()} to find")
    oshape = arg_shape(shape, axis, bool(keepdim))
    if tuple(out.view_shape) != oshape:
        raise invalid(op, f"out shape {list(out.view_shape)} does not match expected {list(oshape)}")
    res = arg_tiling(chip, name, self.numel, out.numel, self.itemsize)
    return build_executor(chip, op, name, [self], [out], res, arg_fn(name == "ArgMax", axis, bool(keepdim)),
                          {"shapes": [list(shape)], "dtype": self.dtype_name, "dim": axis},
                          {"dim": axis, "keepdim": bool(keepdim)})


def aclnnArgMaxGetWorkspaceSize(self, dim, keepdim, out):  # noqa: N802
    """Phase 1 of out = self.argmax(dim, keepdim) (module doc)."""
    return prepare("ArgMax", lambda chip: _build(chip, "ArgMax", self, dim, keepdim, out))


def aclnnArgMax(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ArgMax."""
    return execute("ArgMax", workspace, workspaceSize, executor, stream)


def aclnnArgMinGetWorkspaceSize(self, dim, keepdim, out):  # noqa: N802
    """Phase 1 of out = self.argmin(dim, keepdim) (module doc)."""
    return prepare("ArgMin", lambda chip: _build(chip, "ArgMin", self, dim, keepdim, out))


def aclnnArgMin(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ArgMin."""
    return execute("ArgMin", workspace, workspaceSize, executor, stream)
