"""MaxPool2dWithIndices and MaxPool definitions: parameters in CANN order, dtypes,
shape inference.

Attribute defaults: MaxPool2dWithIndices follows torch.nn.functional.max_pool2d, which
op-plugin maps onto it (stride empty = kernelSize, padding 0, dilation 1, ceilMode
False). MaxPool follows CANN's aclnnMaxPool parameter table (strides 1, pads 0,
dilations 1, ceilMode 0; autoPad 0 = NOTSET, the only value supported)."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_max_pool, infer_with_indices
from .op_api import (aclnnMaxPool, aclnnMaxPool2dWithIndices, aclnnMaxPool2dWithIndicesGetWorkspaceSize,
                     aclnnMaxPoolGetWorkspaceSize)

FLOATS = (aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16)

MAX_POOL2D_WITH_INDICES = OpDef(
    "MaxPool2dWithIndices",
    (Param("self", INPUT), Param("kernelSize", ATTRIBUTE, INT_ARRAY),
     Param("stride", ATTRIBUTE, INT_ARRAY, default=()), Param("padding", ATTRIBUTE, INT_ARRAY, default=(0,)),
     Param("dilation", ATTRIBUTE, INT_ARRAY, default=(1,)), Param("ceilMode", ATTRIBUTE, ATTR, default=False),
     Param("out", OUTPUT), Param("indices", OUTPUT)),
    infer=lambda self, kernelSize, stride, padding, dilation, ceilMode: infer_with_indices(  # noqa: N803
        self[0], self[1], kernelSize, stride, padding, dilation, ceilMode),
    get_workspace_size=aclnnMaxPool2dWithIndicesGetWorkspaceSize, launch=aclnnMaxPool2dWithIndices,
    dtypes=FLOATS, doc="2-D max pooling of ``self`` with the argmax indices (int64)",
)

MAX_POOL = OpDef(
    "MaxPool",
    (Param("self", INPUT), Param("kernelShape", ATTRIBUTE, INT_ARRAY),
     Param("strides", ATTRIBUTE, INT_ARRAY, default=(1, 1)), Param("autoPad", ATTRIBUTE, ATTR, default=0),
     Param("pads", ATTRIBUTE, INT_ARRAY, default=(0, 0, 0, 0)),
     Param("dilations", ATTRIBUTE, INT_ARRAY, default=(1, 1)), Param("ceilMode", ATTRIBUTE, ATTR, default=0),
     Param("out", OUTPUT)),
    infer=lambda self, kernelShape, strides, autoPad, pads, dilations, ceilMode: infer_max_pool(  # noqa: N803
        self[0], self[1], kernelShape, strides, pads, dilations, ceilMode),
    get_workspace_size=aclnnMaxPoolGetWorkspaceSize, launch=aclnnMaxPool,
    dtypes=FLOATS, doc="ONNX-style 2-D max pooling of ``self`` (values only)",
)

OP_DEFS = (MAX_POOL2D_WITH_INDICES, MAX_POOL)
