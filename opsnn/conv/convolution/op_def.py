"""Convolution definition: parameters in CANN order, dtypes, shape inference.

No attribute has a default: CANN's prototype gives none (stride, padding, dilation,
outputPadding are required aclIntArrays; transposed, groups and cubeMathType required
scalars); only ``bias`` may be null.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnConvolution, aclnnConvolutionGetWorkspaceSize



def _infer(input, weight, stride, padding, dilation, **_attrs):  # noqa: A002
    """[(output shape, dtype)]; bias, transposed, outputPadding, groups and cubeMathType
    do not change it."""
    return infer_shape(input[0], input[1], weight[0], stride, padding, dilation)


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
    doc="2-D NCHW convolution of ``input`` by ``weight`` (+ ``bias``), as an implicit GEMM on the Cube",
)

OP_DEFS = (CONVOLUTION,)
