"""QuantMatmulV4 definition: parameters in CANN order, dtypes, shape inference.

Defaults: CANN's prototype gives none (every argument is required; the optional
tensors may be null), so offset, pertokenScaleOptional and bias default to None and
the transpose flags to False only here, as torch_npu's npu_quant_matmul does."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnQuantMatmulV4, aclnnQuantMatmulV4GetWorkspaceSize


def _infer(x1, x2, scale, offset=None, pertokenScaleOptional=None, bias=None,  # noqa: N803
           transposeX1=False, transposeX2=False):  # noqa: N803
    return infer_shape(x1[0], x2[0], aclDataType.ACL_FLOAT16, transposeX1, transposeX2)


QUANT_MATMUL_V4 = OpDef(
    "QuantMatmulV4",
    (Param("x1", INPUT), Param("x2", INPUT), Param("scale", INPUT), Param("offset", INPUT, optional=True),
     Param("pertokenScaleOptional", INPUT, optional=True), Param("bias", INPUT, optional=True),
     Param("transposeX1", ATTRIBUTE, ATTR, default=False), Param("transposeX2", ATTRIBUTE, ATTR, default=False),
     Param("out", OUTPUT)),
    infer=_infer, get_workspace_size=aclnnQuantMatmulV4GetWorkspaceSize, launch=aclnnQuantMatmulV4,
    dtypes=(aclDataType.ACL_INT8,),
    doc="``dequant(x1 @ x2)``: int8 GEMM, int32 accumulate, FixPipe scale to fp16 (bf16/int8 via ``out``)",
)

OP_DEFS = (QUANT_MATMUL_V4,)
