"""aclnnGather / aclnnGatherNd: gather elements or slices by index (ONNX GatherElements,
GatherND with batch_dims 0).

CANN prototypes (aclnn_gather.h, aclnn_gather_nd.h):
  aclnnGatherGetWorkspaceSize(self, dim, index, out, workspaceSize, executor)
  aclnnGatherNdGetWorkspaceSize(self, indices, negativeIndexSupport, out, workspaceSize, executor)
  aclnnXxx(workspace, workspaceSize, executor, stream)
Parameters (CANN order; CANN aclnnGatherNd doc: 1-8 dims, indices INT32/INT64,
indices.shape[-1] in [1, rank], each index in [-s, s-1] with negativeIndexSupport):
  self: any dtype this simulator has; 1-8 dims (Gather: 0-8).
  dim (Gather): int64 in [-rank, rank). index (Gather): INT32/INT64, self's rank, every
    axis but ``dim`` no longer than self's; negative indices count from the end
    (ONNX GatherElements; assumption for CANN, which leaves them undefined).
  indices (GatherNd): INT32/INT64, at least 1-D, last axis k in [1, rank].
  negativeIndexSupport (GatherNd): bool; when False a negative index is out of range.
  out: self's dtype; Gather: index's shape; GatherNd: indices.shape[:-1] + self.shape[k:].
Out-of-range indices: checked by the kernel when it runs; the next synchronize returns
ACL_ERROR_RT_AICORE_EXCEPTION (507015) naming the first bad position (as Embedding).
Status: 161001 null; 161002 not a tensor, dtypes, dims, ranks or shapes.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..common.phase1 import build_executor, check_out, nd_indices, norm_dim
from .infershape import gather_nd_shape
from .kernel import gather_fn, gather_nd_fn
from .tiling import gather_nd_tiling, gather_tiling

INDEX_TYPES = (T.ACL_INT32, T.ACL_INT64)


def _gather(chip, self, dim, index, out):
    op = "aclnnGather"
    check_not_null(op, self=self, dim=dim, index=index, out=out)
    check_tensor_type(op, self=self, index=index, out=out)
    check_dtype(op, "index", index, INDEX_TYPES)
    shape, ishape = tuple(self.view_shape), tuple(index.view_shape)
    if len(shape) > 8:
        raise invalid(op, f"self must be at most 8-D, got shape {list(shape)}")
    axis = norm_dim(op, dim, len(shape))
    if len(ishape) != len(shape) or any(b > a for i, (a, b) in enumerate(zip(shape, ishape)) if i != axis):
        raise invalid(op, f"index shape {list(ishape)} must have self's rank and fit self {list(shape)} outside "
                          f"dim {axis}")
    check_out(op, "out", out, ishape, self.data_type)
    res = gather_tiling(chip, index.numel, self.itemsize, index.itemsize) if out.numel else None
    return build_executor(chip, op, "Gather", [self, index], [out], res, gather_fn(axis),
                          {"shapes": [list(shape), list(ishape)], "dtype": self.dtype_name, "dim": axis},
                          {"dim": axis})


def _gather_nd(chip, self, indices, negative, out):
    op = "aclnnGatherNd"
    check_not_null(op, self=self, indices=indices, negativeIndexSupport=negative, out=out)
    check_tensor_type(op, self=self, indices=indices, out=out)
    check_dtype(op, "indices", indices, INDEX_TYPES)
    shape, ishape = tuple(self.view_shape), tuple(indices.view_shape)
    if not 1 <= len(shape) <= 8:
        raise invalid(op, f"self must be 1-D to 8-D, got shape {list(shape)}")
    k, slice_elems = nd_indices(op, shape, ishape)
    check_out(op, "out", out, gather_nd_shape(shape, ishape), self.data_type)
    res = (gather_nd_tiling(chip, indices.numel // k, slice_elems, k, self.itemsize, indices.itemsize)
           if out.numel else None)
    return build_executor(chip, op, "GatherNd", [self, indices], [out], res, gather_nd_fn(bool(negative)),
                          {"shapes": [list(shape), list(ishape)], "dtype": self.dtype_name}, {"k": k})


def aclnnGatherGetWorkspaceSize(self, dim, index, out):  # noqa: N802
    """Phase 1 of out = self.gather(dim, index) (module doc)."""
    return prepare("Gather", lambda chip: _gather(chip, self, dim, index, out))


def aclnnGather(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Gather."""
    return execute("Gather", workspace, workspaceSize, executor, stream)


def aclnnGatherNdGetWorkspaceSize(self, indices, negativeIndexSupport, out):  # noqa: N802,N803
    """Phase 1 of GatherNd (module doc)."""
    return prepare("GatherNd", lambda chip: _gather_nd(chip, self, indices, negativeIndexSupport, out))


def aclnnGatherNd(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of GatherNd."""
    return execute("GatherNd", workspace, workspaceSize, executor, stream)
