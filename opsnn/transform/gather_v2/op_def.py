"""GatherV2 definition: parameters in CANN order, shape inference."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnGatherV2, aclnnGatherV2GetWorkspaceSize

GATHER_V2 = OpDef(
    "GatherV2",
    (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR), Param("index", INPUT), Param("out", OUTPUT)),
    infer=lambda self, dim, index: infer_shape(self[0], self[1], index[0]),
    get_workspace_size=aclnnGatherV2GetWorkspaceSize, launch=aclnnGatherV2,
    doc="slices of ``self`` along dim 0 gathered by ``index`` (negative indices from the end)",
)

OP_DEFS = (GATHER_V2,)
