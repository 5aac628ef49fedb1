"""Convolution definition: parameters in CANN order, dtypes, shape inference.

No attribute has a default: CANN's prototype gives none (stride, padding, dilation,
outputPadding are required aclIntArrays; transposed, groups and cubeMathType required
scalars); only ``bias`` may be null.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape, infer_shape_nd
from .op_api import aclnnConvolution, aclnnConvolutionGetWorkspaceSize



def _infer(input, weight, stride, padding, dilation, transposed=False, outputPadding=None, groups=1,  # noqa: A002,N803
           **_attrs):
    """[(output shape, dtype)]; bias and cubeMathType do not change it. 1-D, 3-D and
    transposed shapes follow ``op_api_nd.out_sizes``."""
    if len(input[0]) == 4 and not transposed:
        return infer_shape(input[0], input[1], weight[0], stride, padding, dilation)
    return infer_shape_nd(input[0], input[1], weight[0], stride, padding, dilation, bool(transposed),
                          outputPadding, int(groups))


CONVOLUTION = OpDef(
    "Convolution",
    (Param("input", INPUT), Param("weight", INPUT), Param("bias", INPUT, optional=True),
     Param("stride", ATTRIBUTE, INT_ARRAY), Param("padding", ATTRIBUTE, INT_ARRAY),
     Param("dilation", ATTRIBUTE, INT_ARRAY), Param("transposed", ATTRIBUTE, ATTR),
     Param("outputPadding", ATTRIBUTE, INT_ARRAY), Param("groups", ATTRIBUTE, ATTR), Param("output", OUTPUT),
     Param("cubeMathType", ATTRIBUTE, ATTR)),
    infer=_infer,
    get_workspace_size=aclnnConvolutionGetWorkspaceSize, launch=aclnnConvolution,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="1-D/2-D/3-D convolution (or transposed convolution) of ``input`` by ``weight`` (+ ``bias``) on the Cube",
)

OP_DEFS = (CONVOLUTION,)
