"""OneHot definition: ``axis`` defaults to -1 (CANN: -1 appends the class axis)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnOneHot, aclnnOneHotGetWorkspaceSize

ONE_HOT = OpDef(
    "OneHot", (Param("self", INPUT), Param("numClasses", ATTRIBUTE, ATTR), Param("onValue", INPUT),
               Param("offValue", INPUT), Param("axis", ATTRIBUTE, ATTR, default=-1), Param("out", OUTPUT)),
    infer=infer_shape, get_workspace_size=aclnnOneHotGetWorkspaceSize, launch=aclnnOneHot,
    doc="one-hot encoding of the indices ``self`` with ``numClasses`` classes",
)

OP_DEFS = (ONE_HOT,)
