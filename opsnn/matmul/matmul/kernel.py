"""Kernel half of the matmul family: the tile program from the tiling data, and the
numpy body.

Formula: out = self @ mat2 (Matmul, Mm, BatchMatMul; batch dims broadcast), or
out = beta * self + alpha * (mat1 @ mat2) (Addmm). The cube accumulates in fp32 (L0C)
whatever the input dtype; FixPipe converts to the output dtype on the way out. fp16/bf16
inputs are therefore multiplied in float32 here; float32 inputs in float32 (KEEP_DTYPE), rounded to fp16 first (USE_FP16) or
rounded to HF32 first (ALLOW_FP32_DOWN_PRECISION, USE_HF32).
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...common.epilogue_inplace import apply_in_place
from ..common.cube_math import HF32_MANTISSA_BITS, round_operand, round_to_hf32  # noqa: F401 (re-exported)
from ..common.cube_program import apply_epilogue, cube_program
from .tiling_data import MatmulTilingData


def tile_program(td: MatmulTilingData, name: str, in_itemsize: int, out_itemsize: int, cube_dtype: str,
                 args: dict, tiling_key: int, *, bias_itemsize: int = 0, epilogue: tuple[str, ...] = ()) -> KernelSpec:
    """The AIC kernel spec ``name`` of a GEMM tiled as ``td``: per K chunk MTE2 (A, B
    GM->L1), MTE1 (L1->L0A/L0B), CUBE at the ``cube_dtype`` rate, and FIXPIPE on the
    last chunk (:func:`~opsnn.matmul.common.cube_program.cube_program`). ``args``:
    trace args (shapes, dtype, cubeMathType, compute dtype); the tiling struct and
    FLOPs are added. Addmm's bias is not charged on the cube (it is added on the way
    out). ``bias_itemsize`` / ``epilogue``: FusedMatmul's BiasTable bias and FixPipe
    activation (graph mode; see ``cube_program``)."""
    return cube_program(td, name, in_itemsize, out_itemsize, cube_dtype, tiling_key=tiling_key, args=args,
                        bias_itemsize=bias_itemsize, epilogue=epilogue)


def _as_f32(v: np.ndarray) -> np.ndarray:
    """``v`` as float32: itself when it already is a C-contiguous float32 view (no copy;
    the GEMM reads the same values in the same layout), else a contiguous float32 copy
    (what every operand was before: a strided transposed view stays a copy, so BLAS
    sees the layout it always saw)."""
    if v.dtype == np.float32 and v.flags.c_contiguous:
        return v
    return v.astype(np.float32)


def _b_operand(v: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The right operand ``v`` as float32 for ``a @ v``: itself, not a copy, when it is
    a float32 2-D transposed view of a C-contiguous matrix (Gemm's ``transB`` weight,
    read in place through its strides) and ``a`` is a C-contiguous 2-D float32 matrix;
    else :func:`_as_f32`. BLAS then reads B with its transpose flag instead of a
    contiguous copy (151 MiB for AlexNet's fc6 weight): the packed panels and the
    summation order are the same, so the bits are (checked against the copying form
    over 574 shapes, m 1..200, k 1..9216, n 2..4096, and by
    ``tests/perf/test_weights_shared.py``). A transposed *left* operand is still
    copied: OpenBLAS's GEMV path (n == 1) sums in another order for it."""
    if (v.dtype == np.float32 and v.ndim == 2 and a.ndim == 2 and a.dtype == np.float32 and a.flags.c_contiguous
            and v.shape[0] > 1 and v.shape[1] > 1 and v.strides == (v.itemsize, v.shape[0] * v.itemsize)):
        return v
    return _as_f32(v)


def _direct_out(ov: np.ndarray, a: np.ndarray, b: np.ndarray, *views) -> np.ndarray | None:
    """The output's device view ``ov`` when the GEMM can be computed straight into it:
    float32, C-contiguous, exactly the shape ``np.matmul(a, b)`` gives, and sharing no
    memory with the operands or any of ``views`` (the raw input views; a bias read
    after the GEMM must not be overwritten by it). None otherwise (compute, then copy)."""
    if ov.dtype != np.float32 or not ov.flags.c_contiguous or a.ndim < 2 or b.ndim < 2:
        return None
    if ov.shape != np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1]):
        return None
    if any(x is not None and np.may_share_memory(ov, x) for x in (a, b) + views):
        return None
    return ov


def _cast_operands(a, b, compute: str | None):
    return round_operand(a, compute), round_operand(b, compute)


def matmul_body(a_ref, b_ref, out_ref, bias_ref=None, alpha=1.0, beta=1.0, compute: str | None = None,
                act=None):
    """Body factory: out = alpha * (a @ b) + beta * bias. Refs are TensorRefs (the
    caller's slot or a workspace copy; opsnn.common.contiguous); a transposed operand
    is read in place through its strides.
    ``compute``: the cube's operand type for fp32 inputs -- "float16" (USE_FP16),
    "hfloat32" (ALLOW_FP32_DOWN_PRECISION / USE_HF32) or None (as stored).
    ``act``: (activation, alpha, beta) FixPipe applies before the write (graph mode)."""
    def make(addrs, ws):
        aa, ba, oa = a_ref.addr(addrs, ws), b_ref.addr(addrs, ws), out_ref.addr(addrs, ws)
        ca = bias_ref.addr(addrs, ws) if bias_ref is not None else None

        def body(mem):
            # read-only views: a weight shared with its host constant stays shared (no copy)
            av, bv = tensor_view(mem, aa, a_ref.meta, writable=False), tensor_view(mem, ba, b_ref.meta, writable=False)
            a = _as_f32(av)
            b = _b_operand(bv, a) if compute is None else _as_f32(bv)
            a, b = _cast_operands(a, b, compute)
            biasv = tensor_view(mem, ca, bias_ref.meta, writable=False) if bias_ref is not None else None
            ov = _direct_out(tensor_view(mem, oa, out_ref.meta), a, b, av, bv, biasv)
            r = np.matmul(a, b) if ov is None else np.matmul(a, b, out=ov)
            if alpha != 1.0:
                r *= np.float32(alpha)
            if biasv is not None:
                bias = biasv.astype(np.float32)
                if ov is None:
                    r = r + np.float32(beta) * bias
                else:
                    np.add(r, np.float32(beta) * bias, out=r)
            if act is not None:
                if ov is not None and apply_in_place(r, act):
                    return  # the epilogue applied where the GEMM left its result
                r = apply_epilogue(r, *act)
            elif ov is not None:
                return  # the GEMM (and bias) already sit in the output
            write_out(mem, oa, out_ref.meta, r)
        return body
    return make
