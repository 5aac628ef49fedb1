"""Embedding definition: parameters in CANN order, shape inference."""
from __future__ import annotations

from ...base.op_def import INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnEmbedding, aclnnEmbeddingGetWorkspaceSize

EMBEDDING = OpDef(
    "Embedding",
    (Param("weight", INPUT), Param("indices", INPUT), Param("out", OUTPUT)),
    infer=lambda weight, indices: infer_shape(weight[0], weight[1], indices[0]),
    get_workspace_size=aclnnEmbeddingGetWorkspaceSize, launch=aclnnEmbedding,
    doc="rows of ``weight`` gathered by ``indices``",
)

OP_DEFS = (EMBEDDING,)
