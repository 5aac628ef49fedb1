"""DequantizeLinear definition (npu-sim's entry point; see op_api). ``axis`` defaults to
1 as ONNX DequantizeLinear's does."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import (aclnnDequantizeLinear, aclnnDequantizeLinearBlock, aclnnDequantizeLinearBlockGetWorkspaceSize,
                     aclnnDequantizeLinearGetWorkspaceSize)

DEQUANTIZE_LINEAR = OpDef(
    "DequantizeLinear",
    (Param("x", INPUT), Param("scale", INPUT), Param("zeroPoint", INPUT, optional=True),
     Param("axis", ATTRIBUTE, ATTR, default=1), Param("out", OUTPUT)),
    infer=lambda x, scale, zeroPoint=None, axis=1: infer_shape(x[0], scale[1]),
    get_workspace_size=aclnnDequantizeLinearGetWorkspaceSize, launch=aclnnDequantizeLinear,
    dtypes=(aclDataType.ACL_INT8, aclDataType.ACL_UINT8, aclDataType.ACL_INT16, aclDataType.ACL_INT32),
    doc="``(x - zeroPoint) * scale`` (npu-sim's entry point; CANN's nearest is aclnnAscendAntiQuant)",
)

DEQUANTIZE_LINEAR_BLOCK = OpDef(
    "DequantizeLinearBlock",
    (Param("x", INPUT), Param("scale", INPUT), Param("zeroPoint", INPUT, optional=True),
     Param("axis", ATTRIBUTE, ATTR, default=1), Param("blockSize", ATTRIBUTE, ATTR, default=1), Param("out", OUTPUT)),
    infer=lambda x, scale, zeroPoint=None, axis=1, blockSize=1: infer_shape(x[0], scale[1]),
    get_workspace_size=aclnnDequantizeLinearBlockGetWorkspaceSize, launch=aclnnDequantizeLinearBlock,
    dtypes=(aclDataType.ACL_INT8, aclDataType.ACL_UINT8, aclDataType.ACL_INT16, aclDataType.ACL_INT32),
    doc="blocked ``(x - zeroPoint[b]) * scale[b]``, b = i // blockSize along axis (npu-sim's entry point)",
)

OP_DEFS = (DEQUANTIZE_LINEAR, DEQUANTIZE_LINEAR_BLOCK)
