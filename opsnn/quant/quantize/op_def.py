"""Quantize definition: parameters in CANN order. ``dtype`` and ``axis`` are required
in CANN's prototype (no defaults); the Pythonic layer defaults them to ACL_INT8 and
-1 only as conveniences."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnQuantize, aclnnQuantizeBlock, aclnnQuantizeBlockGetWorkspaceSize, aclnnQuantizeGetWorkspaceSize

QUANTIZE = OpDef(
    "Quantize",
    (Param("x", INPUT), Param("scales", INPUT), Param("zeroPoints", INPUT, optional=True),
     Param("dtype", ATTRIBUTE, ATTR, default=aclDataType.ACL_INT8), Param("axis", ATTRIBUTE, ATTR, default=-1),
     Param("out", OUTPUT)),
    infer=lambda x, scales, zeroPoints=None, dtype=aclDataType.ACL_INT8, axis=-1: infer_shape(x[0], dtype),
    get_workspace_size=aclnnQuantizeGetWorkspaceSize, launch=aclnnQuantize,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="``saturate(round(x / scales + zeroPoints))`` to int8 / uint8 / int32",
)

QUANTIZE_BLOCK = OpDef(
    "QuantizeBlock",
    (Param("x", INPUT), Param("scales", INPUT), Param("zeroPoints", INPUT, optional=True),
     Param("dtype", ATTRIBUTE, ATTR, default=aclDataType.ACL_INT8), Param("axis", ATTRIBUTE, ATTR, default=-1),
     Param("blockSize", ATTRIBUTE, ATTR, default=1), Param("out", OUTPUT)),
    infer=lambda x, scales, zeroPoints=None, dtype=aclDataType.ACL_INT8, axis=-1, blockSize=1: infer_shape(x[0], dtype),
    get_workspace_size=aclnnQuantizeBlockGetWorkspaceSize, launch=aclnnQuantizeBlock,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="blocked ``saturate(round(x / scales[b] + zeroPoints[b]))``, b = i // blockSize along axis "
        "(npu-sim's entry point; CANN has no static per-block quantize)",
)

OP_DEFS = (QUANTIZE, QUANTIZE_BLOCK)
