"""AvgPool2d definition: parameters in CANN order, dtypes, shape inference.

Attribute defaults follow torch.nn.functional.avg_pool2d, which op-plugin maps onto
aclnnAvgPool2d: strides empty (= kernelSize), paddings 0, ceilMode False,
countIncludePad True, divisorOverride 0 (none); cubeMathType 0 (KEEP_DTYPE)."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnAvgPool2d, aclnnAvgPool2dGetWorkspaceSize

AVG_POOL2D = OpDef(
    "AvgPool2d",
    (Param("self", INPUT), Param("kernelSize", ATTRIBUTE, INT_ARRAY),
     Param("strides", ATTRIBUTE, INT_ARRAY, default=()), Param("paddings", ATTRIBUTE, INT_ARRAY, default=(0,)),
     Param("ceilMode", ATTRIBUTE, ATTR, default=False), Param("countIncludePad", ATTRIBUTE, ATTR, default=True),
     Param("divisorOverride", ATTRIBUTE, ATTR, default=0), Param("cubeMathType", ATTRIBUTE, ATTR, default=0),
     Param("out", OUTPUT)),
    infer=lambda self, kernelSize, strides, paddings, ceilMode, **_: infer_shape(  # noqa: N803
        self[0], self[1], kernelSize, strides, paddings, ceilMode),
    get_workspace_size=aclnnAvgPool2dGetWorkspaceSize, launch=aclnnAvgPool2d,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="2-D average pooling of ``self``",
)

OP_DEFS = (AVG_POOL2D,)
