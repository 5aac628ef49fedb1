"""Softmax definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnSoftmax, aclnnSoftmaxGetWorkspaceSize

SOFTMAX = OpDef(
    "Softmax",
    (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR), Param("out", OUTPUT)),
    infer=lambda self, dim: infer_shape(self[0], self[1], dim),
    get_workspace_size=aclnnSoftmaxGetWorkspaceSize, launch=aclnnSoftmax,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="softmax of ``self`` along ``dim``",
)

OP_DEFS = (SOFTMAX,)
