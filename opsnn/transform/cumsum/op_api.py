"""aclnnCumsum / aclnnCumsumV2: running sum along one axis (ONNX CumSum).

CANN prototypes (aclnn_cumsum.h):
  aclnnCumsumGetWorkspaceSize(self, dim, dtype, out, workspaceSize, executor)
  aclnnCumsumV2GetWorkspaceSize(self, dim, exclusive, reverse, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT32, INT64; 0-8 dims.
  dim: int64 in [-rank, rank).
  dtype (Cumsum): aclDataType of out (one of self's list); V2: out has self's dtype.
  exclusive (V2): out[i] leaves self[i] out (out[0] = 0). reverse (V2): sum from the end.
  out: self's shape.
Floating sums accumulate in float32 (float64 for DOUBLE), integers in int64.
Status: 161001 null; 161002 not a tensor, dtype, dim, out dtype or shape. An empty
``out`` prepares no kernel.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

import numpy as np

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, norm_dim
from .kernel import cumsum_fn
from .tiling import cumsum_tiling

TYPES = (T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16, T.ACL_DOUBLE, T.ACL_INT8, T.ACL_UINT8, T.ACL_INT32, T.ACL_INT64)


def _build(chip, name, self, dim, out_dtype, exclusive, reverse, out):
    op = f"aclnn{name}"
    check_tensor_type(op, self=self, out=out)
    check_dtype(op, "self", self, TYPES)
    if len(self.view_shape) > 8:
        raise invalid(op, f"self must be at most 8-D, got shape {list(self.view_shape)}")
    axis = norm_dim(op, dim, len(self.view_shape))
    if out_dtype not in TYPES:
        raise invalid(op, f"dtype {getattr(out_dtype, 'name', out_dtype)} not supported")
    check_out(op, "out", out, tuple(self.view_shape), T(out_dtype))
    is_float = np.dtype(out.np_dtype).kind not in "iub"
    acc = np.float64 if T(out_dtype) == T.ACL_DOUBLE else (np.float32 if is_float else np.int64)
    mode = ("exclusive_" if exclusive else "") + ("reverse" if reverse else "forward")
    shape = tuple(self.view_shape) or (1,)
    res = cumsum_tiling(chip, self.numel, self.itemsize, out.itemsize, is_float, mode) if out.numel else None
    fn = cumsum_fn(axis, bool(exclusive), bool(reverse), acc)
    if not self.view_shape:
        inner = fn
        fn = lambda x: [inner(x.reshape(1))[0].reshape(())]  # noqa: E731
    return build_executor(chip, op, name, [self], [out], res, fn,
                          {"shapes": [list(shape)], "dtype": out.dtype_name, "dim": axis}, {"dim": axis, "mode": mode})


def aclnnCumsumGetWorkspaceSize(self, dim, dtype, out):  # noqa: N802
    """Phase 1 of out = cumsum(self, dim) as ``dtype`` (module doc)."""
    def build(chip):
        check_not_null("aclnnCumsum", self=self, dim=dim, dtype=dtype, out=out)
        return _build(chip, "Cumsum", self, dim, dtype, False, False, out)
    return prepare("Cumsum", build)


def aclnnCumsum(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Cumsum."""
    return execute("Cumsum", workspace, workspaceSize, executor, stream)


def aclnnCumsumV2GetWorkspaceSize(self, dim, exclusive, reverse, out):  # noqa: N802
    """Phase 1 of the exclusive / reverse cumsum (module doc)."""
    def build(chip):
        check_not_null("aclnnCumsumV2", self=self, dim=dim, exclusive=exclusive, reverse=reverse, out=out)
        check_tensor_type("aclnnCumsumV2", self=self)
        return _build(chip, "CumsumV2", self, dim, self.data_type, exclusive, reverse, out)
    return prepare("CumsumV2", build)


def aclnnCumsumV2(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of CumsumV2."""
    return execute("CumsumV2", workspace, workspaceSize, executor, stream)
