"""aclnnEmbedding: gather rows of a weight matrix by index.

CANN prototype (aclnn_embedding.h):
  aclnnEmbeddingGetWorkspaceSize(weight, indices, out, workspaceSize, executor)
  aclnnEmbedding(workspace, workspaceSize, executor, stream)
Parameters (CANN order):
  weight: 2-D [num_embeddings, embedding_dim], any dtype this simulator has; ND.
  indices: INT32 or INT64, 0-8 dims.
  out: weight's dtype, shape indices.shape + [embedding_dim].
  Non-contiguous views go through the shared Contiguous copy (``out``: ViewCopy).
Status: 161001 null tensor; 161002 not a tensor, dtype, rank or shape. An empty
``out`` prepares no kernel.
Out-of-range indices: CANN leaves the result undefined. Here the kernel checks every
index when it runs (phase 2 cannot: it never sees data) and fails on the device:
nothing is written, and the next synchronize on the stream returns
ACL_ERROR_RT_AICORE_EXCEPTION (507015) with the first bad position and value in the
message (``acl.get_recent_err_msg()``). Negative indices count as out of range.

Cost model: ``tiling.py``.
"""
from __future__ import annotations

from ...base.checks import check_dtype, check_not_null, check_rank, check_tensor_type, invalid
from ...base.dtypes import aclDataType as T
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...common.contiguous import WorkspacePlan
from .infershape import infer_shape
from .kernel import embedding_body, tile_program
from .tiling import embedding_tiling

OP = "aclnnEmbedding"
INDEX_TYPES = (T.ACL_INT32, T.ACL_INT64)
MAX_RANK = 8


def _build(chip, weight, indices, out):
    check_not_null(OP, weight=weight, indices=indices, out=out)
    check_tensor_type(OP, weight=weight, indices=indices, out=out)
    check_dtype(OP, "indices", indices, INDEX_TYPES)
    check_dtype(OP, "out", out, (weight.data_type,))
    check_rank(OP, "weight", weight, (2,))
    if len(indices.view_shape) > MAX_RANK:
        raise invalid(OP, f"indices must be at most {MAX_RANK}-D, got shape {list(indices.view_shape)}")
    v, d = weight.view_shape
    (shape, _), = infer_shape(weight.view_shape, weight.data_type, indices.view_shape)
    if tuple(out.view_shape) != shape:
        raise invalid(OP, f"out shape {list(out.view_shape)} does not match expected {list(shape)}")
    info = {"num_embeddings": v, "embedding_dim": d, "lookups": indices.numel}
    return row_gather_executor(chip, OP, "Embedding", weight, indices, out, d, embedding_body, info)


def row_gather_executor(chip, api: str, name: str, table, index, out, row_elems: int, body, info: dict):
    """The executor of a row gather ``out = table[index]`` (checks done): Embedding's
    tiling (``row_elems`` elements a row), its tile program named ``name``, the
    Contiguous / ViewCopy plan and ``body(table_ref, index_ref, out_ref)``; an empty
    ``out`` prepares no kernel. Shared by aclnnEmbedding and aclnnGatherV2."""
    if out.numel == 0:
        return aclOpExecutor(name, [], [table, index], [out], 0, info=dict(info, strategy="empty"))
    res = embedding_tiling(chip, index.numel, row_elems, table.itemsize, index.itemsize)
    td = res.data
    spec = tile_program(td, {"shapes": [list(table.view_shape), list(index.view_shape)], "dtype": table.dtype_name,
                             "index_dtype": index.dtype_name}, res.tiling_key, name)
    plan = WorkspacePlan(chip, api)
    main = PreparedKernel(spec, body(plan.input(table, 0), plan.input(index, 1), plan.output(out, 2)))
    kernels = plan.kernels([main])
    return aclOpExecutor(name, kernels, [table, index], [out], plan.size,
                         info=dict(info, strategy=res.strategy, chunk_elems=td.chunk_elems,
                                   chunks_per_row=td.chunks_per_row, tiling=spec.args["tiling"],
                                   copies=[k.spec.name for k in kernels if k is not main]))


def aclnnEmbeddingGetWorkspaceSize(weight, indices, out):  # noqa: N802
    """Phase 1 of out = weight[indices] (module doc). Returns ``(workspace_size,
    executor, status)``: 161001 null, 161002 dtype/rank/shape. Out-of-range indices
    are reported at synchronisation (507015), not here."""
    return prepare("Embedding", lambda chip: _build(chip, weight, indices, out))


def aclnnEmbedding(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Embedding: bind addresses and enqueue on ``stream``."""
    return execute("Embedding", workspace, workspaceSize, executor, stream)
