"""aclnnMatmul, aclnnMm, aclnnBatchMatMul and aclnnAddmm: phase 1 (checks, shape
inference, cube tiling) and phase 2 (the shared executor run).

CANN prototypes (aclnn_matmul.h, aclnn_batch_matmul.h, aclnn_addmm.h):
  aclnnMatmulGetWorkspaceSize(self, mat2, out, cubeMathType, workspaceSize, executor)
  aclnnMmGetWorkspaceSize(self, mat2, out, cubeMathType, workspaceSize, executor)
  aclnnBatchMatMulGetWorkspaceSize(self, mat2, out, cubeMathType, workspaceSize, executor)
  aclnnAddmmGetWorkspaceSize(self, mat1, mat2, beta, alpha, out, cubeMathType, workspaceSize, executor)
dtypes: FLOAT, FLOAT16, BF16 (self and mat2 alike; out the same set); format ND;
a transposed operand (last two dims swapped) is read in place, as the cube's
transpose flag does; any other non-contiguous view goes through the shared
Contiguous copy first, and a non-contiguous ``out`` through a ViewCopy after.
Shapes: Matmul >= 2-D operands, batch dims broadcast (numpy rules); Mm 2-D; BatchMatMul 3-D [B, M, K] x [B, K, N] with B equal or one of them 1
(broadcast), out [max B, M, N].
cubeMathType (CANN aclnnMatmul doc, Atlas A2 behaviour, which the 910B presets
model): 0 KEEP_DTYPE (compute in the input type; fp32 at the fp32 cube rate);
1 ALLOW_FP32_DOWN_PRECISION (fp32 -> HF32, other types unchanged); 2 USE_FP16 (fp32 ->
fp16; not supported for BF16: 161002); 3 USE_HF32 (fp32 -> HF32; only FLOAT inputs,
161002 otherwise). The chosen operand type is ``args["compute_dtype"]`` in the trace
and ``executor.info``; the numpy body rounds the operands to it (HF32 width: see
``kernel.HF32_MANTISSA_BITS``), and the timing uses the chip's HF32 cube rate
(``cube_hf32_macs_per_cycle``); the tiling is in ``tiling.py``.
Status: 161001 null self/mat2/out; 161002 not a tensor, dtype, rank, K mismatch, batch
dims that do not broadcast, out shape, or an invalid or unsupported cubeMathType.
"""
from __future__ import annotations

from ...base.checks import (FLOAT_TYPES_BF16, broadcast_shape, check_dtype, check_not_null, check_rank,
                            check_same_dtype, check_shape, check_tensor_type, invalid)
from ...base.dtypes import aclDataType
from ...base.executor import PreparedKernel, aclOpExecutor
from ...base.op import execute, prepare
from ...base.tensor import aclScalar, aclTensor
from ...common.contiguous import TensorRef, WorkspacePlan, needs_copy
from .infershape import gemm_dims
from .kernel import matmul_body, tile_program
from ..common.cube_math import CubeMathType, compute_dtype_name, cube_compute_dtype
from .tiling import matmul_tiling


def _check_cmt(op: str, cube_math_type) -> int:
    if isinstance(cube_math_type, bool) or cube_math_type not in (0, 1, 2, 3):
        raise invalid(op, f"cubeMathType must be 0..3, got {cube_math_type!r}")
    return int(cube_math_type)


def _check_cmt_dtype(op: str, cmt: int, t) -> None:
    """CANN's per-dtype limits on cubeMathType (Atlas A2 doc)."""
    if cmt == 2 and t.data_type == aclDataType.ACL_BF16:
        raise invalid(op, "cubeMathType 2 (USE_FP16) is not supported for ACL_BF16 inputs")
    if cmt == 3 and t.data_type != aclDataType.ACL_FLOAT:
        raise invalid(op, f"cubeMathType 3 (USE_HF32) supports only ACL_FLOAT inputs, got {t.data_type.name}")


def _cube_operand(plan, t, slot: int):
    """(TensorRef, transposed) for a cube operand: a contiguous view, or one whose last
    two dims are swapped (the cube's transpose flag reads it in place, as CANN's
    Matmul does for a transposed self/mat2), is used as is; any other view gets a
    Contiguous copy through ``plan``."""
    if t.numel == 0 or not needs_copy(t):
        return TensorRef(t, slot), False
    if len(t.view_shape) >= 2:
        sh, st = list(t.view_shape), list(t.view_strides)
        sh[-2:], st[-2:] = sh[:-3:-1], st[:-3:-1]
        if not needs_copy(aclTensor(sh, t.data_type, st, t.view_offset, 2, t.storage_shape, 0)):
            return TensorRef(t, slot), True
    return plan.input(t, slot), False


def _check_shapes(op: str, a, b) -> None:
    """161002 unless self and mat2 are >= 2-D with equal K and broadcastable batch dims."""
    sa, sb = a.view_shape, b.view_shape
    if len(sa) < 2 or len(sb) < 2:
        raise invalid(op, f"self and mat2 must be at least 2-D, got {list(sa)} and {list(sb)}")
    k, k2 = sa[-1], sb[-2]
    if k != k2:
        raise invalid(op, f"inner dimensions differ: self {list(sa)} has K={k}, mat2 {list(sb)} has K={k2}")
    broadcast_shape(op, sa[:-2], sb[:-2])


def _build_matmul(chip, op, a, b, out, cube_math_type, bias=None, alpha=1.0, beta=1.0, fused=None):
    check_not_null(op, self=a, mat2=b, out=out)
    check_tensor_type(op, self=a, mat2=b, out=out)
    cmt = _check_cmt(op, cube_math_type)
    for name, t in (("self", a), ("mat2", b), ("out", out)):
        check_dtype(op, name, t, FLOAT_TYPES_BF16)
    check_same_dtype(op, self=a, mat2=b)
    _check_cmt_dtype(op, cmt, a)
    _check_shapes(op, a, b)
    shape, batch, m, n, k = gemm_dims(tuple(a.view_shape), tuple(b.view_shape))
    check_shape(op, "out", out, shape)
    if bias is not None:
        if broadcast_shape(op, bias.view_shape, shape) != shape:
            raise invalid(op, f"self (bias) shape {list(bias.view_shape)} does not broadcast to {list(shape)}")
    # tiling (host) -> tile program (kernel)
    name, cube = op.replace("aclnn", ""), cube_compute_dtype(a.dtype_name, cmt)
    cd = compute_dtype_name(cube)
    res = matmul_tiling(chip, name, batch, m, n, k, a.itemsize, out.itemsize, cube)
    args = {"shapes": [list(a.view_shape), list(b.view_shape)], "dtype": a.dtype_name,
            "cubeMathType": cmt, "compute_dtype": cd}
    act, extra = None, {}
    if fused is not None:  # aclnnFusedMatmul (graph mode): bias in the BiasTable, FixPipe activation
        act, names = fused
        args = dict(args, fused=list(names), bias=bias is not None, activation=act[0])
        extra = {"bias_itemsize": 4 if bias is not None else 0,
                 "epilogue": (act[0],) if act[0] != "none" else ()}
    spec = tile_program(res.data, name, a.itemsize, out.itemsize, cube, args, res.tiling_key, **extra)
    inputs = [a, b] if bias is None else [bias, a, b]
    plan = WorkspacePlan(chip, op)
    first = 0 if bias is None else 1
    bias_ref = plan.input(bias, 0) if bias is not None else None
    (a_ref, ta), (b_ref, tb) = _cube_operand(plan, a, first), _cube_operand(plan, b, first + 1)
    out_ref = plan.output(out, len(inputs))
    body = matmul_body(a_ref, b_ref, out_ref, bias_ref, alpha, beta,
                       compute=cd if cd in ("float16", "hfloat32") else None, act=act)
    main = PreparedKernel(spec, body)
    kernels = plan.kernels([main])
    spec.args["transposed"] = [ta, tb]
    return aclOpExecutor(op.replace("aclnn", ""), kernels, inputs, [out], plan.size,
                         info={"tiling": spec.args["tiling"], "cubeMathType": CubeMathType(cmt).name,
                               "compute_dtype": cd, "transposed": [ta, tb],
                               "copies": [k.spec.name for k in kernels if k is not main]})


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


def aclnnBatchMatMulGetWorkspaceSize(self, mat2, out, cubeMathType=0):  # noqa: N802,N803
    """Phase 1 of out = self @ mat2 for 3-D operands [B, M, K] x [B, K, N] (B equal, or
    1 on one side and broadcast). Returns (workspace_size, executor, status): 161001
    null; 161002 rank, dtype, shape or cubeMathType (module doc)."""
    def build(chip):
        op = "aclnnBatchMatMul"
        check_not_null(op, self=self, mat2=mat2, out=out)
        check_tensor_type(op, self=self, mat2=mat2, out=out)
        check_rank(op, "self", self, (3,))
        check_rank(op, "mat2", mat2, (3,))
        return _build_matmul(chip, op, self, mat2, out, cubeMathType)
    return prepare("BatchMatMul", build)


def aclnnBatchMatMul(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of BatchMatMul: bind addresses and enqueue on ``stream``."""
    return execute("BatchMatMul", workspace, workspaceSize, executor, stream)


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


def aclnnFusedMatmulGetWorkspaceSize(self, mat2, bias, fusedActivation, activationAlpha, activationBeta,  # noqa: N802
                                     originalOpNames, out, cubeMathType=0):  # noqa: N803
    """Phase 1 of out = act(self @ mat2 + bias): an npu-sim graph-mode kernel (not a
    CANN aclnn API; GE fuses MatMul + BiasAdd + activation internally). ``bias``:
    None or [N], loaded as fp32 into the BiasTable once per output tile;
    ``fusedActivation`` "none", "relu", "leaky_relu" (slope ``activationAlpha``) or
    "clip" ([``activationAlpha``, ``activationBeta``]), applied by FixPipe as L0C
    drains to GM; ``originalOpNames``: the graph ops fused (trace ``args["fused"]``).
    Returns (workspace_size, executor, status): aclnnMatmul's statuses, and 161002
    for an unknown activation or a bias that is not [N]."""
    from ..common.cube_program import EPILOGUES

    def build(chip):
        op = "aclnnFusedMatmul"
        if fusedActivation not in EPILOGUES:
            raise invalid(op, f"fusedActivation must be one of {sorted(EPILOGUES)}, got {fusedActivation!r}")
        if bias is not None:
            check_tensor_type(op, bias=bias)
            check_dtype(op, "bias", bias, FLOAT_TYPES_BF16)
            if mat2 is not None and (len(bias.view_shape) != 1 or bias.view_shape[0] != mat2.view_shape[-1]):
                raise invalid(op, f"bias must be [N] = [{mat2.view_shape[-1]}], got {list(bias.view_shape)}")
        act = (fusedActivation, float(activationAlpha), float(activationBeta))
        return _build_matmul(chip, op, self, mat2, out, cubeMathType, bias=bias,
                             fused=(act, tuple(originalOpNames)))
    return prepare("FusedMatmul", build)


def aclnnFusedMatmul(workspace, workspaceSize, executor, stream):  # noqa: N802,N803
    """Phase 2 of FusedMatmul (npu-sim graph mode): enqueue on ``stream``."""
    return execute("FusedMatmul", workspace, workspaceSize, executor, stream)
