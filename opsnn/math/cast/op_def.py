"""Definition of aclnnCast: parameters in CANN order (aclnn_cast.h: self, dtype, out),
dtypes, shape inference. ``dtype`` is a required aclDataType (no CANN default)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from ...base.promotion import ALL_TYPES
from .infershape import infer_cast
from .op_api import aclnnCast, aclnnCastGetWorkspaceSize

CAST = OpDef("Cast", (Param("self", INPUT), Param("dtype", ATTRIBUTE, ATTR), Param("out", OUTPUT)),
             infer=infer_cast, get_workspace_size=aclnnCastGetWorkspaceSize, launch=aclnnCast, dtypes=ALL_TYPES,
             doc="``self`` converted to ``dtype``")

OP_DEFS = (CAST,)
