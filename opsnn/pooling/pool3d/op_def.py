"""MaxPool3dWithArgmax and AvgPool3d definitions: parameters in CANN order, dtypes,
shape inference. Defaults follow torch.nn.functional.max_pool3d / avg_pool3d, which
op-plugin maps onto them (stride empty = kernelSize, padding 0, dilation 1, ceilMode
False, countIncludePad True, divisorOverride 0 = none)."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import out_shape, pads6, passes, triple
from .op_api import (aclnnAvgPool3d, aclnnAvgPool3dGetWorkspaceSize, aclnnMaxPool3dWithArgmax,
                     aclnnMaxPool3dWithArgmaxGetWorkspaceSize)

FLOATS = (aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16)


def _shape(shape, k, s, d, p, ceil):
    k3 = triple(k)
    g_hw, g_d = passes(shape, k3, triple(s, k3), triple(d, (1, 1, 1)), pads6(p), bool(ceil))
    return out_shape(shape, g_hw, g_d)


MAX_POOL3D_WITH_ARGMAX = OpDef(
    "MaxPool3dWithArgmax",
    (Param("self", INPUT), Param("kernelSize", ATTRIBUTE, INT_ARRAY),
     Param("stride", ATTRIBUTE, INT_ARRAY, default=()), Param("padding", ATTRIBUTE, INT_ARRAY, default=(0,)),
     Param("dilation", ATTRIBUTE, INT_ARRAY, default=(1,)), Param("ceilMode", ATTRIBUTE, ATTR, default=False),
     Param("out", OUTPUT), Param("indices", OUTPUT)),
    infer=lambda self, kernelSize, stride, padding, dilation, ceilMode: [  # noqa: N803
        (_shape(self[0], kernelSize, stride, dilation, padding, ceilMode), self[1]),
        (_shape(self[0], kernelSize, stride, dilation, padding, ceilMode), aclDataType.ACL_INT32)],
    get_workspace_size=aclnnMaxPool3dWithArgmaxGetWorkspaceSize, launch=aclnnMaxPool3dWithArgmax,
    dtypes=FLOATS, doc="3-D max pooling of ``self`` with the argmax indices (int32)",
)

AVG_POOL3D = OpDef(
    "AvgPool3d",
    (Param("self", INPUT), Param("kernelSize", ATTRIBUTE, INT_ARRAY),
     Param("stride", ATTRIBUTE, INT_ARRAY, default=()), Param("padding", ATTRIBUTE, INT_ARRAY, default=(0,)),
     Param("ceilMode", ATTRIBUTE, ATTR, default=False), Param("countIncludePad", ATTRIBUTE, ATTR, default=True),
     Param("divisorOverride", ATTRIBUTE, ATTR, default=0), Param("out", OUTPUT)),
    infer=lambda self, kernelSize, stride, padding, ceilMode, countIncludePad, divisorOverride: [  # noqa: N803
        (_shape(self[0], kernelSize, stride, (1,), padding, ceilMode), self[1])],
    get_workspace_size=aclnnAvgPool3dGetWorkspaceSize, launch=aclnnAvgPool3d,
    dtypes=FLOATS, doc="3-D average pooling of ``self``",
)

OP_DEFS = (MAX_POOL3D_WITH_ARGMAX, AVG_POOL3D)
