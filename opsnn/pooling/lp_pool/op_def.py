"""LpPool definition (npu-sim's; CANN has no Lp pooling op): parameters in
aclnnMaxPool's ONNX-style order, ONNX's defaults (strides 1, pads 0, dilations 1,
ceilMode 0, p 2)."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import lp_geoms, out_shape
from .op_api import aclnnLpPool, aclnnLpPoolGetWorkspaceSize


def _infer(self, kernelShape, strides, pads, dilations, ceilMode, p):  # noqa: N803
    nsp = len(self[0]) - 2
    g = lp_geoms(self[0], tuple(kernelShape), tuple(strides) or (1,) * nsp, tuple(dilations) or (1,) * nsp,
                 tuple(pads) or (0,) * (2 * nsp), bool(ceilMode))
    return [(out_shape(self[0], g), self[1])]


LP_POOL = OpDef(
    "LpPool",
    (Param("self", INPUT), Param("kernelShape", ATTRIBUTE, INT_ARRAY),
     Param("strides", ATTRIBUTE, INT_ARRAY, default=()), Param("pads", ATTRIBUTE, INT_ARRAY, default=()),
     Param("dilations", ATTRIBUTE, INT_ARRAY, default=()), Param("ceilMode", ATTRIBUTE, ATTR, default=0),
     Param("p", ATTRIBUTE, ATTR, default=2.0), Param("out", OUTPUT)),
    infer=_infer, get_workspace_size=aclnnLpPoolGetWorkspaceSize, launch=aclnnLpPool,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="Lp pooling of ``self`` over 1 to 3 spatial dims (npu-sim; CANN has no LpPool)",
)

OP_DEFS = (LP_POOL,)
