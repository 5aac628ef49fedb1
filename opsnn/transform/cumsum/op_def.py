"""Cumsum definitions: CumsumV2's ``exclusive`` and ``reverse`` default to False."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_cumsum, infer_cumsum_v2
from .op_api import aclnnCumsum, aclnnCumsumGetWorkspaceSize, aclnnCumsumV2, aclnnCumsumV2GetWorkspaceSize

CUMSUM = OpDef(
    "Cumsum", (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR), Param("dtype", ATTRIBUTE, ATTR),
               Param("out", OUTPUT)),
    infer=infer_cumsum, get_workspace_size=aclnnCumsumGetWorkspaceSize, launch=aclnnCumsum,
    doc="running sum of ``self`` along ``dim`` as ``dtype``",
)
CUMSUM_V2 = OpDef(
    "CumsumV2", (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR),
                 Param("exclusive", ATTRIBUTE, ATTR, default=False), Param("reverse", ATTRIBUTE, ATTR, default=False),
                 Param("out", OUTPUT)),
    infer=infer_cumsum_v2, get_workspace_size=aclnnCumsumV2GetWorkspaceSize, launch=aclnnCumsumV2,
    doc="running sum of ``self`` along ``dim`` (exclusive / reverse)",
)

OP_DEFS = (CUMSUM, CUMSUM_V2)
