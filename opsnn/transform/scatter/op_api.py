"""aclnnScatter / aclnnScatterNd: write updates into a copy of a tensor by index (ONNX
ScatterElements, ScatterND).

CANN prototypes (aclnn_scatter.h, aclnn_scatter_nd.h):
  aclnnScatterGetWorkspaceSize(self, dim, index, src, reduce, out, workspaceSize, executor)
  aclnnScatterNdGetWorkspaceSize(data, indices, updates, out, workspaceSize, executor)
  (here with one simulator extension after CANN's parameters: ``reduce=0``, the codes
  of Scatter's reduce, for ONNX ScatterND's reduction add/mul/max/min; CANN's
  aclnnScatterNd only replaces)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self / data: any dtype this simulator has; 1-8 dims.
  dim (Scatter): int64 in [-rank, rank). index: INT32/INT64 of self's rank, no axis
    longer than src's, nor than self's outside ``dim``. src: self's dtype and rank.
  reduce (Scatter): int64; 0 replace, 1 add, 2 multiply (CANN), 3 max, 4 min
    (simulator extension for ONNX ScatterElements; not in CANN).
  indices (ScatterNd): INT32/INT64, last axis k in [1, rank]; updates: data's dtype,
    shape indices.shape[:-1] + data.shape[k:].
  out: shape and dtype of self / data.
CANN (aclnnScatterNd doc) lists FLOAT16, FLOAT, BOOL and BF16 for data and non-negative,
in-range indices only; here any dtype is accepted, and negative indices count from the
end (ONNX). Out-of-range ones fail on the device at synchronize (507015). Duplicate indices: applied in index order (the last write wins
for replace), as CANN leaves them undefined.
Status: 161001 null; 161002 not a tensor, dtypes, dim, reduce, ranks or shapes.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, int_arg, nd_indices, norm_dim
from .kernel import REDUCE, scatter_fn, scatter_nd_fn
from .tiling import scatter_tiling

INDEX_TYPES = (T.ACL_INT32, T.ACL_INT64)


def _scatter(chip, self, dim, index, src, reduce, out):
    op = "aclnnScatter"
    check_not_null(op, self=self, dim=dim, index=index, src=src, reduce=reduce, out=out)
    check_tensor_type(op, self=self, index=index, src=src, out=out)
    check_dtype(op, "index", index, INDEX_TYPES)
    check_dtype(op, "src", src, (self.data_type,))
    shape, ishape, sshape = tuple(self.view_shape), tuple(index.view_shape), tuple(src.view_shape)
    if not 1 <= len(shape) <= 8:
        raise invalid(op, f"self must be 1-D to 8-D, got shape {list(shape)}")
    axis = norm_dim(op, dim, len(shape))
    r = int_arg(op, "reduce", reduce)
    if r not in REDUCE:
        raise invalid(op, f"reduce {r} must be one of {sorted(REDUCE)}")
    if len(ishape) != len(shape) or len(sshape) != len(shape) or any(
            i > s or (a != axis and i > d) for a, (i, s, d) in enumerate(zip(ishape, sshape, shape))):
        raise invalid(op, f"index shape {list(ishape)} must have self's rank and fit src {list(sshape)} and "
                          f"self {list(shape)} outside dim {axis}")
    check_out(op, "out", out, shape, self.data_type)
    res = (scatter_tiling(chip, "Scatter", self.numel, self.itemsize, index.numel, 1, index.nbytes, REDUCE[r])
           if out.numel else None)
    return build_executor(chip, op, "Scatter", [self, index, src], [out], res, scatter_fn(axis, REDUCE[r]),
                          {"shapes": [list(shape), list(ishape)], "dtype": self.dtype_name, "dim": axis},
                          {"dim": axis, "reduce": REDUCE[r]})


def _scatter_nd(chip, data, indices, updates, out, reduce=0):
    op = "aclnnScatterNd"
    check_not_null(op, data=data, indices=indices, updates=updates, out=out)
    r = int_arg(op, "reduce", reduce)
    if r not in REDUCE:
        raise invalid(op, f"reduce {r} must be one of {sorted(REDUCE)}")
    check_tensor_type(op, data=data, indices=indices, updates=updates, out=out)
    check_dtype(op, "indices", indices, INDEX_TYPES)
    check_dtype(op, "updates", updates, (data.data_type,))
    shape, ishape = tuple(data.view_shape), tuple(indices.view_shape)
    if not 1 <= len(shape) <= 8:
        raise invalid(op, f"data must be 1-D to 8-D, got shape {list(shape)}")
    k, slice_elems = nd_indices(op, shape, ishape)
    ushape = ishape[:-1] + shape[k:]
    if tuple(updates.view_shape) != ushape:
        raise invalid(op, f"updates shape {list(updates.view_shape)} does not match expected {list(ushape)}")
    check_out(op, "out", out, shape, data.data_type)
    res = (scatter_tiling(chip, "ScatterNd", data.numel, data.itemsize, indices.numel // k, slice_elems,
                          indices.nbytes, REDUCE[r]) if out.numel else None)
    return build_executor(chip, op, "ScatterNd", [data, indices, updates], [out], res, scatter_nd_fn(REDUCE[r]),
                          {"shapes": [list(shape), list(ishape)], "dtype": data.dtype_name}, {"k": k})


def aclnnScatterGetWorkspaceSize(self, dim, index, src, reduce, out):  # noqa: N802
    """Phase 1 of out = self.scatter(dim, index, src, reduce) (module doc)."""
    return prepare("Scatter", lambda chip: _scatter(chip, self, dim, index, src, reduce, out))


def aclnnScatter(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Scatter."""
    return execute("Scatter", workspace, workspaceSize, executor, stream)


def aclnnScatterNdGetWorkspaceSize(data, indices, updates, out, reduce=0):  # noqa: N802
    """Phase 1 of out = scatter_nd(data, indices, updates) (module doc)."""
    return prepare("ScatterNd", lambda chip: _scatter_nd(chip, data, indices, updates, out, reduce))


def aclnnScatterNd(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of ScatterNd."""
    return execute("ScatterNd", workspace, workspaceSize, executor, stream)
