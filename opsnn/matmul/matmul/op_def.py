"""Matmul-family definitions: parameters in CANN order, dtypes, shape inference.

No attribute has a default: CANN's prototypes give none (aclnnMatmul doc:
``int8_t cubeMathType`` is a required host-side input; aclnnAddmm's ``beta``/``alpha``
are required aclScalars), so the Pythonic functions ask for them.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, SCALAR, OpDef, Param
from .infershape import infer_shape
from .op_api import (aclnnAddmm, aclnnAddmmGetWorkspaceSize, aclnnBatchMatMul, aclnnBatchMatMulGetWorkspaceSize,
                     aclnnMatmul, aclnnMatmulGetWorkspaceSize, aclnnMm, aclnnMmGetWorkspaceSize)

_DTYPES = (aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16)
_CMT = Param("cubeMathType", ATTRIBUTE, ATTR)
_GEMM = (Param("self", INPUT), Param("mat2", INPUT), Param("out", OUTPUT), _CMT)


def _infer(self, mat2, cubeMathType):  # noqa: N803
    return infer_shape(self[0], self[1], mat2[0], mat2[1])


MATMUL = OpDef("Matmul", _GEMM, infer=_infer, get_workspace_size=aclnnMatmulGetWorkspaceSize, launch=aclnnMatmul,
               dtypes=_DTYPES, doc="``self @ mat2`` (>= 2-D, batch dims broadcast)")
MM = OpDef("Mm", _GEMM, infer=_infer, get_workspace_size=aclnnMmGetWorkspaceSize, launch=aclnnMm,
           dtypes=_DTYPES, doc="``self @ mat2`` for 2-D operands")
BATCH_MAT_MUL = OpDef("BatchMatMul", _GEMM, infer=_infer, get_workspace_size=aclnnBatchMatMulGetWorkspaceSize,
                      launch=aclnnBatchMatMul, dtypes=_DTYPES,
                      doc="``self @ mat2`` for 3-D operands [B, M, K] x [B, K, N] (B equal or 1)")
ADDMM = OpDef(
    "Addmm",
    (Param("self", INPUT), Param("mat1", INPUT), Param("mat2", INPUT), Param("beta", ATTRIBUTE, SCALAR),
     Param("alpha", ATTRIBUTE, SCALAR), Param("out", OUTPUT), _CMT),
    infer=lambda self, mat1, mat2, beta, alpha, cubeMathType: infer_shape(mat1[0], mat1[1], mat2[0]),
    get_workspace_size=aclnnAddmmGetWorkspaceSize, launch=aclnnAddmm, dtypes=_DTYPES,
    doc="``beta * self + alpha * (mat1 @ mat2)`` (2-D mat1/mat2; self broadcasts to [M, N])",
)

OP_DEFS = (MATMUL, MM, BATCH_MAT_MUL, ADDMM)
