"""DynamicQuantizeLinear definition (npu-sim's entry point; see op_api)."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnDynamicQuantizeLinear, aclnnDynamicQuantizeLinearGetWorkspaceSize

DYNAMIC_QUANTIZE_LINEAR = OpDef(
    "DynamicQuantizeLinear",
    (Param("x", INPUT), Param("y", OUTPUT), Param("yScale", OUTPUT), Param("yZeroPoint", OUTPUT)),
    infer=lambda x: infer_shape(x[0]),
    get_workspace_size=aclnnDynamicQuantizeLinearGetWorkspaceSize, launch=aclnnDynamicQuantizeLinear,
    dtypes=(aclDataType.ACL_FLOAT,),
    doc="uint8 ``y``, ``yScale``, ``yZeroPoint`` from x's range (npu-sim's entry point)",
)

OP_DEFS = (DYNAMIC_QUANTIZE_LINEAR,)
