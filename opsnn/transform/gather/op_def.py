"""Gather / GatherNd definitions. GatherNd's ``negativeIndexSupport`` defaults to False."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_gather, infer_gather_nd
from .op_api import aclnnGather, aclnnGatherGetWorkspaceSize, aclnnGatherNd, aclnnGatherNdGetWorkspaceSize

GATHER = OpDef(
    "Gather", (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR), Param("index", INPUT), Param("out", OUTPUT)),
    infer=infer_gather, get_workspace_size=aclnnGatherGetWorkspaceSize, launch=aclnnGather,
    doc="elements of ``self`` picked along ``dim`` by ``index``",
)
GATHER_ND = OpDef(
    "GatherNd", (Param("self", INPUT), Param("indices", INPUT),
                 Param("negativeIndexSupport", ATTRIBUTE, ATTR, default=False), Param("out", OUTPUT)),
    infer=infer_gather_nd, get_workspace_size=aclnnGatherNdGetWorkspaceSize, launch=aclnnGatherNd,
    doc="slices of ``self`` addressed by the index tuples of ``indices``",
)

OP_DEFS = (GATHER, GATHER_ND)
