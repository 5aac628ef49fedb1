"""Repeat definition: parameters in CANN order."""
from __future__ import annotations

from ...base.op_def import ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnRepeat, aclnnRepeatGetWorkspaceSize

REPEAT = OpDef(
    "Repeat", (Param("self", INPUT), Param("repeats", ATTRIBUTE, INT_ARRAY), Param("out", OUTPUT)),
    infer=lambda self, repeats: infer_shape(self[0], self[1], repeats),
    get_workspace_size=aclnnRepeatGetWorkspaceSize, launch=aclnnRepeat,
    doc="``self`` tiled ``repeats`` times along each axis",
)

OP_DEFS = (REPEAT,)
