"""DepthToSpace / SpaceToDepth definitions (no aclnn entry point in CANN: op_api doc)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_d2s, infer_s2d
from .op_api import (aclnnDepthToSpace, aclnnDepthToSpaceGetWorkspaceSize, aclnnSpaceToDepth,
                     aclnnSpaceToDepthGetWorkspaceSize)

DEPTH_TO_SPACE = OpDef(
    "DepthToSpace", (Param("self", INPUT), Param("blockSize", ATTRIBUTE, ATTR),
                     Param("mode", ATTRIBUTE, ATTR, default="DCR"), Param("out", OUTPUT)),
    infer=lambda self, blockSize, mode: infer_d2s(self[0], self[1], blockSize, mode),
    get_workspace_size=aclnnDepthToSpaceGetWorkspaceSize, launch=aclnnDepthToSpace,
    doc="channel blocks of ``self`` moved into space (NCHW)",
)
SPACE_TO_DEPTH = OpDef(
    "SpaceToDepth", (Param("self", INPUT), Param("blockSize", ATTRIBUTE, ATTR),
                     Param("mode", ATTRIBUTE, ATTR, default="DCR"), Param("out", OUTPUT)),
    infer=lambda self, blockSize, mode: infer_s2d(self[0], self[1], blockSize, mode),
    get_workspace_size=aclnnSpaceToDepthGetWorkspaceSize, launch=aclnnSpaceToDepth,
    doc="spatial blocks of ``self`` moved into channels (NCHW)",
)

OP_DEFS = (DEPTH_TO_SPACE, SPACE_TO_DEPTH)
