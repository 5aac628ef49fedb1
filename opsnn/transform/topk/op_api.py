"""aclnnTopk: the k largest (or smallest) values along one axis and their indices.

CANN prototype (aclnn_topk.h; CANN aclnnTopk doc):
  aclnnTopkGetWorkspaceSize(self, k, dim, largest, sorted, valuesOut, indicesOut, workspaceSize, executor)
  aclnnTopk(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64; 1-8 dims
    (a 0-D self counts as 1-D of one element).
  k: int64 in [0, self.shape[dim]]. dim: int64 in [-rank, rank).
  largest: True for the largest first, False for the smallest first.
  sorted: CANN supports only True; False is accepted and gives the sorted result
    (a valid unsorted order).
  valuesOut: self's dtype; indicesOut: INT64; both self's shape with dim set to k.
Ties: the lower index first (ONNX TopK); values are compared as float64.
Status: 161001 null; 161002 not a tensor, dtype, k, dim, out dtypes or shapes.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_arg, norm_dim
from .infershape import topk_shape
from .kernel import topk_fn
from .tiling import topk_tiling

OP = "aclnnTopk"
TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT16, T.ACL_INT32,
         T.ACL_INT64)


def _build(chip, self, k, dim, largest, sorted_, values, indices):
    check_not_null(OP, self=self, k=k, dim=dim, largest=largest, sorted=sorted_, valuesOut=values,
                   indicesOut=indices)
    check_tensor_type(OP, self=self, valuesOut=values, indicesOut=indices)
    check_dtype(OP, "self", self, TYPES)
    shape = tuple(self.view_shape) or (1,)
    if len(shape) > 8:
        raise invalid(OP, f"self must be at most 8-D, got shape {list(shape)}")
    axis = norm_dim(OP, dim, len(shape))
    kk = int_arg(OP, "k", k)
    if not 0 <= kk <= shape[axis]:
        raise invalid(OP, f"k {kk} out of range [0, {shape[axis]}] for dim {axis}")
    oshape = topk_shape(shape, kk, axis) if self.view_shape else ()
    check_out(OP, "valuesOut", values, oshape, self.data_type)
    check_out(OP, "indicesOut", indices, oshape, T.ACL_INT64)
    rows = max(self.numel // max(shape[axis], 1), 1) if self.numel else 0
    res = topk_tiling(chip, rows, shape[axis], kk, self.itemsize) if values.numel else None
    fn = topk_fn(kk, axis, bool(largest))
    if not self.view_shape:
        inner = fn
        fn = lambda x: [v.reshape(()) for v in inner(x.reshape(1))]  # noqa: E731
    return build_executor(chip, OP, "Topk", [self], [values, indices], res, fn,
                          {"shapes": [list(shape)], "dtype": self.dtype_name, "dim": axis},
                          {"k": kk, "dim": axis, "largest": bool(largest)})


def aclnnTopkGetWorkspaceSize(self, k, dim, largest, sorted, valuesOut, indicesOut):  # noqa: N802,N803,A002
    """Phase 1 of (values, indices) = self.topk(k, dim, largest, sorted) (module doc)."""
    return prepare("Topk", lambda chip: _build(chip, self, k, dim, largest, sorted, valuesOut, indicesOut))


def aclnnTopk(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Topk."""
    return execute("Topk", workspace, workspaceSize, executor, stream)
