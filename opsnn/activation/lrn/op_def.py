"""LRN definition: parameters in our aclnnLrn order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, SCALAR, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnLrn, aclnnLrnGetWorkspaceSize

LRN = OpDef(
    "Lrn",
    # no CANN aclnnLrn exists (op_api); the defaults are ONNX LRN-13's (size has none:
    # it is a required attribute there)
    (Param("self", INPUT), Param("size", ATTRIBUTE, ATTR),
     Param("alpha", ATTRIBUTE, SCALAR, default=1e-4), Param("beta", ATTRIBUTE, SCALAR, default=0.75),
     Param("bias", ATTRIBUTE, SCALAR, default=1.0), Param("out", OUTPUT)),
    infer=lambda self, **_: infer_shape(self[0], self[1]),
    get_workspace_size=aclnnLrnGetWorkspaceSize, launch=aclnnLrn,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="local response normalisation of ``self`` across channels (dim 1), ONNX semantics",
)

OP_DEFS = (LRN,)
