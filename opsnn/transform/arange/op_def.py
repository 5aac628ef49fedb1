"""Arange definition: start, end, step are aclScalars (no defaults, as aclnnArange)."""
from __future__ import annotations

from ...base.op_def import ATTRIBUTE, OUTPUT, SCALAR, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnArange, aclnnArangeGetWorkspaceSize

ARANGE = OpDef(
    "Arange", (Param("start", ATTRIBUTE, SCALAR), Param("end", ATTRIBUTE, SCALAR), Param("step", ATTRIBUTE, SCALAR),
               Param("out", OUTPUT)),
    infer=lambda start, end, step: infer_shape(start, end, step),
    get_workspace_size=aclnnArangeGetWorkspaceSize, launch=aclnnArange,
    doc="the progression ``start``, ``start + step``, ... below ``end``",
)

OP_DEFS = (ARANGE,)
