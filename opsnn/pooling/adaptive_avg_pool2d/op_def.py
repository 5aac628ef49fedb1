"""AdaptiveAvgPool2d definition: parameters in CANN order, dtypes, shape inference
(``outputSize`` is required, as in torch)."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnAdaptiveAvgPool2d, aclnnAdaptiveAvgPool2dGetWorkspaceSize

ADAPTIVE_AVG_POOL2D = OpDef(
    "AdaptiveAvgPool2d",
    (Param("self", INPUT), Param("outputSize", ATTRIBUTE, INT_ARRAY), Param("out", OUTPUT)),
    infer=lambda self, outputSize: infer_shape(self[0], self[1], outputSize),  # noqa: N803
    get_workspace_size=aclnnAdaptiveAvgPool2dGetWorkspaceSize, launch=aclnnAdaptiveAvgPool2d,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="adaptive 2-D average pooling of ``self`` to ``outputSize``",
)

OP_DEFS = (ADAPTIVE_AVG_POOL2D,)
