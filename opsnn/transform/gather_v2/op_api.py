"""aclnnGatherV2: gather slices of ``self`` along ``dim`` by index, negative indices
counting from the end.

CANN prototype (aclnn_gather_v2.h; CANN aclnnGatherV2 doc, Atlas A2):
  aclnnGatherV2GetWorkspaceSize(self, dim, index, out, workspaceSize, executor)
  aclnnGatherV2(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  self: any dtype this simulator has; 1-8 dims; ND.
  dim: int64. This simulator takes dim 0 (or -rank) only and refuses others with
    161002; the ONNX lowering moves the gathered axis first (aclnnPermute), as it
    does for aclnnEmbedding.
  index: INT32 or INT64, 0-8 dims; positive and negative indices (the CANN doc says
    the index tensor supports both), each in [-n, n) with n = self.shape[dim].
  out: self's dtype, shape index.shape + self.shape[1:].
Status: 161001 null tensor; 161002 not a tensor, dtype, rank, dim or shape. An empty
``out`` prepares no kernel.
Out-of-range indices: checked by the kernel when it runs (phase 2 never sees data);
the next synchronize returns ACL_ERROR_RT_AICORE_EXCEPTION (507015) naming the first
bad position, as aclnnEmbedding.

Cost model: Embedding's (``opsnn/transform/embedding/tiling.py``): the same rows move
through MTE2/MTE3; the index wrap is not timed.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.op import execute, prepare
from ..embedding.op_api import row_gather_executor
from .infershape import infer_shape
from .kernel import gather_v2_body

OP = "aclnnGatherV2"
INDEX_TYPES = (T.ACL_INT32, T.ACL_INT64)
MAX_RANK = 8


def _build(chip, self, dim, index, out):  # noqa: A002 - CANN's parameter name
    check_not_null(OP, self=self, index=index, out=out)
    check_tensor_type(OP, self=self, index=index, out=out)
    check_dtype(OP, "index", index, INDEX_TYPES)
    check_dtype(OP, "out", out, (self.data_type,))
    rank = len(self.view_shape)
    if not 1 <= rank <= MAX_RANK or len(index.view_shape) > MAX_RANK:
        raise invalid(OP, f"self must be 1-{MAX_RANK}-D and index at most {MAX_RANK}-D, got shapes "
                          f"{list(self.view_shape)} and {list(index.view_shape)}")
    if not isinstance(dim, int) or isinstance(dim, bool) or dim not in (0, -rank):
        raise invalid(OP, f"dim {dim!r}: npu-sim's aclnnGatherV2 gathers along dim 0 only (move the axis "
                          f"first with aclnnPermute)")
    (shape, _), = infer_shape(self.view_shape, self.data_type, index.view_shape)
    if tuple(out.view_shape) != shape:
        raise invalid(OP, f"out shape {list(out.view_shape)} does not match expected {list(shape)}")
    row = out.numel // index.numel if index.numel else 0
    info = {"rows": self.view_shape[0], "row_elems": row, "lookups": index.numel}
    return row_gather_executor(chip, OP, "GatherV2", self, index, out, row, gather_v2_body, info)


def aclnnGatherV2GetWorkspaceSize(self, dim, index, out):  # noqa: N802,A002
    """Phase 1 of out = self[index] along dim 0 (module doc). Returns
    ``(workspace_size, executor, status)``: 161001 null, 161002 dtype/rank/dim/shape.
    Out-of-range indices are reported at synchronisation (507015), not here."""
    return prepare("GatherV2", lambda chip: _build(chip, self, dim, index, out))


def aclnnGatherV2(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of GatherV2: bind addresses and enqueue on ``stream``."""
    return execute("GatherV2", workspace, workspaceSize, executor, stream)
