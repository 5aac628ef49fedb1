"""Convolution definition: parameters in CANN order, dtypes, shape inference.

Attribute defaults: CANN's C prototype has none (every aclIntArray and scalar is a
required argument). The defaults below are those of torch.nn.functional.conv2d, which
aclnnConvolution's attribute set mirrors (stride 1, padding 0, dilation 1, groups 1,
not transposed), and cubeMathType 0 (KEEP_DTYPE, the binding's default).
"""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnConvolution, aclnnConvolutionGetWorkspaceSize



def _infer(input, weight, stride=(1, 1), padding=(0, 0), dilation=(1, 1), **_attrs):  # noqa: A002
    """[(output shape, dtype)]; bias, transposed, outputPadding, groups and cubeMathType
    do not change it."""
    return infer_shape(input[0], input[1], weight[0], stride, padding, dilation)


CONVOLUTION = OpDef(
    "Convolution",
    (Param("input", INPUT), Param("weight", INPUT), Param("bias", INPUT, optional=True),
     Param("stride", ATTRIBUTE, INT_ARRAY, default=(1, 1)), Param("padding", ATTRIBUTE, INT_ARRAY, default=(0, 0)),
     Param("dilation", ATTRIBUTE, INT_ARRAY, default=(1, 1)), Param("transposed", ATTRIBUTE, ATTR, default=False),
     Param("outputPadding", ATTRIBUTE, INT_ARRAY, optional=True, default=None),
     Param("groups", ATTRIBUTE, ATTR, default=1), Param("output", OUTPUT),
     Param("cubeMathType", ATTRIBUTE, ATTR, default=0)),
    infer=_infer,
    get_workspace_size=aclnnConvolutionGetWorkspaceSize, launch=aclnnConvolution,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="2-D NCHW convolution of ``input`` by ``weight`` (+ ``bias``), as an implicit GEMM on the Cube",
)

OP_DEFS = (CONVOLUTION,)
