"""aclnnOneHot: encode integer indices as one-hot vectors along a new axis.

CANN prototype (aclnn_one_hot.h):
  aclnnOneHotGetWorkspaceSize(self, numClasses, onValue, offValue, axis, out, workspaceSize, executor)
  aclnnOneHot(workspace, workspaceSize, executor, stream)
Parameters (CANN order; CANN aclnnOneHot doc):
  self: INT32, INT64 or UINT8 indices; 0-7 dims. An index outside [0, numClasses)
    gives a vector of ``offValue`` only.
  numClasses: int >= 0 (> 0 when self is empty).
  onValue, offValue: tensors of out's dtype; only their first element is used.
  axis: int64 in [-1, rank(self)]; -1 appends the new axis.
  out: FLOAT16, FLOAT, BF16, INT8, UINT8, INT32 or INT64; self's shape with
    numClasses inserted at axis.
Status: 161001 null; 161002 not a tensor, dtypes, numClasses, axis, empty on/off, or
out shape. An empty ``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_arg
from .infershape import one_hot_shape
from .kernel import one_hot_fn
from .tiling import one_hot_tiling

OP = "aclnnOneHot"
INDEX_TYPES = (T.ACL_INT32, T.ACL_INT64, T.ACL_UINT8)
OUT_TYPES = (T.ACL_FLOAT16, T.ACL_FLOAT, T.ACL_BF16, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32, T.ACL_INT64)


def _build(chip, self, num_classes, on, off, axis, out):
    check_not_null(OP, self=self, numClasses=num_classes, onValue=on, offValue=off, axis=axis, out=out)
    check_tensor_type(OP, self=self, onValue=on, offValue=off, out=out)
    check_dtype(OP, "self", self, INDEX_TYPES)
    check_dtype(OP, "out", out, OUT_TYPES)
    check_dtype(OP, "onValue", on, (out.data_type,))
    check_dtype(OP, "offValue", off, (out.data_type,))
    k = int_arg(OP, "numClasses", num_classes)
    a = int_arg(OP, "axis", axis)
    rank = len(self.view_shape)
    if rank > 7:
        raise invalid(OP, f"self must be at most 7-D, got shape {list(self.view_shape)}")
    if k < 0 or (k == 0 and self.numel == 0):
        raise invalid(OP, f"numClasses {k} must be >= 0 (> 0 for an empty self)")
    if not -1 <= a <= rank:
        raise invalid(OP, f"axis {a} out of range [-1, {rank}]")
    if on.numel == 0 or off.numel == 0:
        raise invalid(OP, "onValue and offValue must hold at least one element")
    check_out(OP, "out", out, one_hot_shape(self.view_shape, k, a), out.data_type)
    res = one_hot_tiling(chip, self.numel, k, self.itemsize, out.itemsize) if out.numel else None
    return build_executor(chip, OP, "OneHot", [self, on, off], [out], res, one_hot_fn(k, a),
                          {"shapes": [list(self.view_shape)], "dtype": out.dtype_name, "num_classes": k,
                           "axis": a}, {"num_classes": k, "axis": a})


def aclnnOneHotGetWorkspaceSize(self, numClasses, onValue, offValue, axis, out):  # noqa: N802,N803
    """Phase 1 of OneHot (module doc): ``(workspace_size, executor, status)``."""
    return prepare("OneHot", lambda chip: _build(chip, self, numClasses, onValue, offValue, axis, out))


def aclnnOneHot(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of OneHot."""
    return execute("OneHot", workspace, workspaceSize, executor, stream)
