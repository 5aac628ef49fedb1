"""SwiGlu definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnSwiGlu, aclnnSwiGluGetWorkspaceSize

SWI_GLU = OpDef(
    "SwiGlu",
    (Param("x", INPUT),
     # dim: the CANN doc gives no default; -1 (the last axis) is torch_npu's npu_swiglu default
     Param("dim", ATTRIBUTE, ATTR, default=-1),
     Param("out", OUTPUT)),
    infer=lambda x, dim=-1: infer_shape(x[0], x[1], dim),
    get_workspace_size=aclnnSwiGluGetWorkspaceSize, launch=aclnnSwiGlu,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="Swish-gated linear unit: silu(first half of ``x`` along ``dim``) * second half",
)

OP_DEFS = (SWI_GLU,)
