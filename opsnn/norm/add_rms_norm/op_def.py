"""AddRmsNorm definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnAddRmsNorm, aclnnAddRmsNormGetWorkspaceSize

ADD_RMS_NORM = OpDef(
    "AddRmsNorm",
    (Param("x1", INPUT), Param("x2", INPUT), Param("gamma", INPUT),
     # epsilon: CANN's prototype calls it epsilonOptional (8.0 aolapi reference) without stating a
     # default there; 1e-6 is aclnnRmsNorm's documented default ("缺省值为1e-6"), assumed the same
     Param("epsilon", ATTRIBUTE, ATTR, default=1e-6),
     Param("yOut", OUTPUT), Param("rstdOut", OUTPUT), Param("xOut", OUTPUT)),
    infer=lambda x1, x2, gamma, epsilon=1e-6: infer_shape(x1[0], x1[1], gamma[0]),
    get_workspace_size=aclnnAddRmsNormGetWorkspaceSize, launch=aclnnAddRmsNorm,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="``x1 + x2`` (xOut) then its root-mean-square normalisation over ``gamma``'s axes, scaled by ``gamma``",
)

OP_DEFS = (ADD_RMS_NORM,)
