"""QuantConvolution definition: parameters in CANN order, dtypes, shape inference.

Defaults: CANN's prototype gives none (every argument is required; bias and offset
may be null). Here bias/offset default to None, transposed to False, outputPadding to
None, groups to 1, offsetx to 0 and roundMode to "rint" for the Pythonic function only."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from ..convolution.infershape import infer_shape
from .op_api import aclnnQuantConvolution, aclnnQuantConvolutionGetWorkspaceSize


def _infer(input, weight, scale, stride, padding, dilation, bias=None, offset=None, **_attrs):  # noqa: A002
    """[(output shape, FLOAT16)]: CANN's default output dtype; INT8/UINT8/INT32 come from
    the caller's output tensor."""
    return infer_shape(input[0], aclDataType.ACL_FLOAT16, weight[0], stride, padding, dilation)


QUANT_CONVOLUTION = OpDef(
    "QuantConvolution",
    (Param("input", INPUT), Param("weight", INPUT), Param("bias", INPUT, optional=True), Param("scale", INPUT),
     Param("offset", INPUT, optional=True), Param("stride", ATTRIBUTE, INT_ARRAY),
     Param("padding", ATTRIBUTE, INT_ARRAY), Param("dilation", ATTRIBUTE, INT_ARRAY),
     Param("transposed", ATTRIBUTE, ATTR, default=False),
     Param("outputPadding", ATTRIBUTE, INT_ARRAY, optional=True, default=None),
     Param("groups", ATTRIBUTE, ATTR, default=1), Param("offsetx", ATTRIBUTE, ATTR, default=0),
     Param("roundMode", ATTRIBUTE, ATTR, default="rint"), Param("output", OUTPUT)),
    infer=_infer, get_workspace_size=aclnnQuantConvolutionGetWorkspaceSize, launch=aclnnQuantConvolution,
    dtypes=(aclDataType.ACL_INT8,),
    doc="int8 2-D convolution, int32 accumulate, FixPipe scale (+ bias) to fp16 (bf16/int8/uint8/int32 via "
        "``output``)",
)

OP_DEFS = (QUANT_CONVOLUTION,)
