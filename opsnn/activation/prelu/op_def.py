"""Definition of aclnnPrelu: ``(self, weight, out)`` in CANN order."""
from __future__ import annotations

from ...base.op_def import INPUT, OUTPUT, OpDef, Param
from ...base.promotion import FLOATS
from . import op_api
from .infershape import infer_prelu

OP_DEFS = (OpDef("Prelu", (Param("self", INPUT), Param("weight", INPUT), Param("out", OUTPUT)),
                 infer=lambda self, weight: infer_prelu(self, weight),
                 get_workspace_size=op_api.aclnnPreluGetWorkspaceSize, launch=op_api.aclnnPrelu, dtypes=FLOATS,
                 doc="out = self >= 0 ? self : weight * self (weight over the channel dim 1)"),)
