"""RmsNorm definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnRmsNorm, aclnnRmsNormGetWorkspaceSize

RMS_NORM = OpDef(
    "RmsNorm",
    (Param("x", INPUT), Param("gamma", INPUT),
     # epsilon: "缺省值为1e-6" (CANN aclnnRmsNorm doc, e.g. CANN 8.0.0 aolapi reference)
     Param("epsilon", ATTRIBUTE, ATTR, default=1e-6),
     Param("yOut", OUTPUT), Param("rstdOut", OUTPUT)),
    infer=lambda x, gamma, epsilon=1e-6: infer_shape(x[0], x[1], gamma[0]),
    get_workspace_size=aclnnRmsNormGetWorkspaceSize, launch=aclnnRmsNorm,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="root-mean-square normalisation of ``x`` over ``gamma``'s axes, scaled by ``gamma``",
)

OP_DEFS = (RMS_NORM,)
