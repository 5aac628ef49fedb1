"""Kernel half of QuantMatmulV4: the tile program and the numpy body.

Formula (CANN aclnnQuantMatmulV4 doc, Atlas A2):
  acc = x1 @ x2 in int32 (int8 x int8 products accumulated exactly in L0C),
  int32 bias:       out = (acc + bias) * scale [* pertokenScale] + offset
  float bias:       out = acc * scale [* pertokenScale] + bias          (no offset)
  no bias:          out = acc * scale [* pertokenScale] + offset
``scale`` and ``offset`` are [1] (per tensor) or [N] (per channel); ``pertokenScale``
is [M]. The dequant (and, for an int8 out, the requant: round half to even, saturate
to [-128, 127]) is done by FixPipe as L0C drains to GM.

Timing: the Cube stage runs at the int8 rate (``cube_dtype="int8"``: 16x32x16 MACs a
cycle on 910B, ``npu_sim/hardware/cost.py``); the FIXPIPE stage writes out_itemsize
bytes per element (1 for int8 out, 2 for fp16/bf16), its cost the FIXPIPE formula of
``npu_sim/hardware/cost.py`` (bytes / ``fixpipe_bytes_per_cycle`` + per-transfer
latency). The dequant itself costs FixPipe no throughput: [AC] the Ascend C
``Fixpipe`` API converts with quantPre (a scalar or a per-channel vector) "along the
path" from L0C; [A] the per-channel scale vector (at most base_n x 8 B per output
tile, as FixPipe's buffer holds it) is not charged, being under 1% of an output
tile's operand bytes. A bias rides in the BiasTable (4 B per value), charged once per
output tile as cube_program does for Addmm/Convolution.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ..common.cube_program import cube_program
from .tiling_data import MatmulTilingData

#: bytes per bias value in the BiasTable (int32 and float32 alike)
BIAS_TABLE_ITEMSIZE = 4


def tile_program(td: MatmulTilingData, out_itemsize: int, args: dict, tiling_key: int, *,
                 has_bias: bool) -> KernelSpec:
    """The AIC kernel spec of an int8 GEMM tiled as ``td`` (1-byte operands, the Cube
    at the int8 rate, FIXPIPE writing ``out_itemsize`` bytes per element with the
    dequant epilogue, recorded as ``args["epilogue"] == ["dequant"]``)."""
    return cube_program(td, "QuantMatmulV4", 1, out_itemsize, "int8", tiling_key=tiling_key, args=args,
                        bias_itemsize=BIAS_TABLE_ITEMSIZE if has_bias else 0, epilogue=("dequant",))


def dequant(acc: np.ndarray, scale: np.ndarray, offset=None, pertoken=None, bias=None,
            out_kind: str = "f") -> np.ndarray:
    """FixPipe's dequant of an int32 accumulator ``acc`` [..., M, N] (formula in the
    module doc). ``bias``: int32 (added before the scale) or float (after). Returns
    float32, for ``out_kind == "i"`` the int8 requant (round half to even, saturate),
    for ``"i32"`` the int32 sum (INT32 out: no scale)."""
    r = acc.astype(np.int64)
    if bias is not None and bias.dtype.kind in "iu":
        r = r + bias.astype(np.int64)
    if out_kind == "i32":  # INT32 out: the accumulator (+ int32 bias), no scale [A]
        return r.astype(np.int32)
    f = r.astype(np.float32) * scale.astype(np.float32)
    if pertoken is not None:
        f = f * pertoken.astype(np.float32)[..., :, None]
    if bias is not None and bias.dtype.kind not in "iu":
        f = f + bias.astype(np.float32)
    if offset is not None:
        f = f + offset.astype(np.float32)
    if out_kind == "i":
        return np.clip(np.rint(f), -128, 127).astype(np.int8)
    return f


def quant_matmul_body(x1_ref, x2_ref, out_ref, scale_ref, offset_ref=None, pertoken_ref=None, bias_ref=None,
                      transpose_x1: bool = False, transpose_x2: bool = False):
    """Body factory: int8 GEMM with int32 accumulation (exact: |acc| < 2^31 for K below
    133,000), then :func:`dequant`. Refs are TensorRefs (the caller's slot or a
    workspace copy)."""
    def make(addrs, ws):
        a1, a2, ao = x1_ref.addr(addrs, ws), x2_ref.addr(addrs, ws), out_ref.addr(addrs, ws)
        extra = [(r, r.addr(addrs, ws)) if r is not None else None
                 for r in (scale_ref, offset_ref, pertoken_ref, bias_ref)]

        def read(mem, e):
            return None if e is None else np.asarray(tensor_view(mem, e[1], e[0].meta))

        def body(mem):
            x1 = tensor_view(mem, a1, x1_ref.meta).astype(np.int64)
            x2 = tensor_view(mem, a2, x2_ref.meta).astype(np.int64)
            if transpose_x1:
                x1 = np.swapaxes(x1, -1, -2)
            if transpose_x2:
                x2 = np.swapaxes(x2, -1, -2)
            acc = np.matmul(x1, x2).astype(np.int32)
            scale, offset, pertoken, bias = (read(mem, e) for e in extra)
            odt = np.dtype(out_ref.meta.np_dtype)
            kind = "i32" if odt == np.int32 else odt.kind
            write_out(mem, ao, out_ref.meta, dequant(acc, scale, offset, pertoken, bias, kind))
        return body
    return make
