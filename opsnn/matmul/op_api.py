"""aclnnMatmul, aclnnMm and aclnnAddmm: phase 1 (checks, shape inference, cube tiling)
and phase 2 (the shared executor run).

CANN prototypes (aclnn_matmul.h, aclnn_addmm.h):
  aclnnMatmulGetWorkspaceSize(self, mat2, out, cubeMathType, workspaceSize, executor)
  aclnnMmGetWorkspaceSize(self, mat2, out, cubeMathType, workspaceSize, executor)
  aclnnAddmmGetWorkspaceSize(self, mat1, mat2, beta, alpha, out, cubeMathType, workspaceSize, executor)
dtypes: FLOAT, FLOAT16, BF16 (all operands alike); format ND.
cubeMathType: 0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION (fp32 runs as HF32 at the
fp16 cube rate), 2 USE_FP16 (fp32 operands rounded to fp16), 3 USE_HF32.
"""
from __future__ import annotations

from ..base.checks import (FLOAT_TYPES_BF16, check_dtype, check_not_null, check_rank, check_same_dtype, check_shape,
                           check_tensor_type, invalid)
from ..base.executor import PreparedKernel, aclOpExecutor
from ..base.op import execute, prepare
from ..base.tensor import aclScalar
from ..base.tiling import cube_kernel
from .kernel import matmul_body


def _cube_dtype(t, cube_math_type: int) -> str:
    name = t.dtype_name
    if name == "float32" and cube_math_type in (1, 2, 3):
        return "float16"  # HF32 / fp16 path runs at the fp16 cube rate
    return name


def _check_cmt(op: str, cube_math_type) -> int:
    if cube_math_type not in (0, 1, 2, 3):
        raise invalid(op, f"cubeMathType must be 0..3, got {cube_math_type!r}")
    return int(cube_math_type)


def _matmul_shapes(op: str, a, b) -> tuple[tuple[int, ...], int, int, int, int]:
    """torch.matmul-style shape inference for >= 2-D operands: returns
    (out shape, batch, M, N, K)."""
    sa, sb = a.view_shape, b.view_shape
    if len(sa) < 2 or len(sb) < 2:
        raise invalid(op, f"self and mat2 must be at least 2-D, got {list(sa)} and {list(sb)}")
    m, k = sa[-2], sa[-1]
    k2, n = sb[-2], sb[-1]
    if k != k2:
        raise invalid(op, f"inner dimensions differ: self {list(sa)} has K={k}, mat2 {list(sb)} has K={k2}")
    from ..base.checks import broadcast_shape
    batch_shape = broadcast_shape(op, sa[:-2], sb[:-2])
    batch = 1
    for d in batch_shape:
        batch *= d
    return tuple(batch_shape) + (m, n), batch, m, n, k


def _build_matmul(chip, op, a, b, out, cube_math_type, bias=None, alpha=1.0, beta=1.0):
    check_not_null(op, self=a, mat2=b, out=out)
    check_tensor_type(op, self=a, mat2=b, out=out)
    cmt = _check_cmt(op, cube_math_type)
    for name, t in (("self", a), ("mat2", b), ("out", out)):
        check_dtype(op, name, t, FLOAT_TYPES_BF16)
    check_same_dtype(op, self=a, mat2=b)
    shape, batch, m, n, k = _matmul_shapes(op, a, b)
    check_shape(op, "out", out, shape)
    if bias is not None:
        from ..base.checks import broadcast_shape
        if broadcast_shape(op, bias.view_shape, shape) != shape:
            raise invalid(op, f"self (bias) shape {list(bias.view_shape)} does not broadcast to {list(shape)}")
    spec, td = cube_kernel(chip, op.replace("aclnn", ""), batch, m, n, k, a.itemsize, out.itemsize,
                           _cube_dtype(a, cmt),
                           args={"shapes": [list(a.view_shape), list(b.view_shape)], "dtype": a.dtype_name,
                                 "cubeMathType": cmt})
    inputs = [a, b] if bias is None else [bias, a, b]
    body = matmul_body(a, b, out, bias, alpha, beta, to_fp16=(cmt == 2 and a.dtype_name == "float32"))
    return aclOpExecutor(op.replace("aclnn", ""), [PreparedKernel(spec, body)], inputs, [out], 0,
                         info={"tiling": spec.args["tiling"]})


def aclnnMatmulGetWorkspaceSize(self, mat2, out, cubeMathType=0):  # noqa: N802,N803
    """Phase 1 of out = self @ mat2 (>= 2-D, batch dims broadcast).
    Returns (workspace_size, executor, status): 161001 null tensor; 161002 dtype,
    shape (K mismatch, out shape) or cubeMathType invalid."""
    return prepare("Matmul", lambda chip: _build_matmul(chip, "aclnnMatmul", self, mat2, out, cubeMathType))


def aclnnMatmul(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of Matmul: bind addresses and enqueue on ``stream``. Returns a status."""
    return execute("Matmul", workspace, workspaceSize, executor, stream)


def aclnnMmGetWorkspaceSize(self, mat2, out, cubeMathType=0):  # noqa: N802,N803
    """Phase 1 of out = self @ mat2 for 2-D operands."""
    def build(chip):
        check_not_null("aclnnMm", self=self, mat2=mat2, out=out)
        check_tensor_type("aclnnMm", self=self, mat2=mat2, out=out)
        check_rank("aclnnMm", "self", self, (2,))
        check_rank("aclnnMm", "mat2", mat2, (2,))
        return _build_matmul(chip, "aclnnMm", self, mat2, out, cubeMathType)
    return prepare("Mm", build)


def aclnnMm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Mm", workspace, workspaceSize, executor, stream)


def aclnnAddmmGetWorkspaceSize(self, mat1, mat2, beta, alpha, out, cubeMathType=0):  # noqa: N802,N803
    """Phase 1 of out = beta * self + alpha * (mat1 @ mat2) (ONNX Gemm). ``self``
    broadcasts to [M, N]; ``beta``/``alpha`` are aclScalar (or numbers)."""
    def build(chip):
        op = "aclnnAddmm"
        check_not_null(op, self=self, mat1=mat1, mat2=mat2, out=out, beta=beta, alpha=alpha)
        check_tensor_type(op, self=self)
        check_rank(op, "mat1", mat1, (2,))
        check_rank(op, "mat2", mat2, (2,))
        check_dtype(op, "self", self, FLOAT_TYPES_BF16)
        b = beta.to_python() if isinstance(beta, aclScalar) else float(beta)
        a = alpha.to_python() if isinstance(alpha, aclScalar) else float(alpha)
        return _build_matmul(chip, op, mat1, mat2, out, cubeMathType, bias=self, alpha=a, beta=b)
    return prepare("Addmm", build)


def aclnnAddmm(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    return execute("Addmm", workspace, workspaceSize, executor, stream)
