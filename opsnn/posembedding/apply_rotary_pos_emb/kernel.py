"""ApplyRotaryPosEmb kernel half: the tile program and the numpy body.

Formula (CANN aclnnApplyRotaryPosEmb): q' = q * cos + rotate(q) * sin and the same for
k, in place, with rotate(x) = cat(-x[..., D/2:], x[..., :D/2]) (half mode) or, in the
interleaved mode (simulator extension), pairs (x0, x1) -> (-x1, x0). Computed in
float32 and rounded once.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from .tiling_data import ApplyRotaryPosEmbTilingData


def tile_program(td: ApplyRotaryPosEmbTilingData, args: dict, tiling_key: int) -> KernelSpec:
    """The AIV kernel spec (one kernel over the query and key rows)."""
    return vector_spec("ApplyRotaryPosEmb", td.vector, td.in_bytes_per_unit, td.out_bytes_per_unit,
                       td.vec_bytes_per_unit, tiling_key=tiling_key,
                       args=dict(args, bytes=td.gm_bytes, casts=td.casts))


def rotate_f32(x: np.ndarray, interleaved: bool) -> np.ndarray:
    """rotate_half or the interleaved pair rotation of the last axis."""
    if interleaved:
        r = np.empty_like(x)
        r[..., 0::2] = -x[..., 1::2]
        r[..., 1::2] = x[..., 0::2]
        return r
    h = x.shape[-1] // 2
    return np.concatenate([-x[..., h:], x[..., :h]], axis=-1)


def make_body(io_refs, cos_ref, sin_ref, interleaved: bool):
    """Body factory: ``io_refs`` is [(input ref, output ref)] for query (and key)."""
    def make(addrs, ws):
        pairs = [(i.addr(addrs, ws), i.meta, o.addr(addrs, ws), o.meta) for i, o in io_refs]
        ca, cm = cos_ref.addr(addrs, ws), cos_ref.meta
        sa, sm = sin_ref.addr(addrs, ws), sin_ref.meta

        def body(mem):
            c = tensor_view(mem, ca, cm).astype(np.float32)
            s = tensor_view(mem, sa, sm).astype(np.float32)
            for ia, im, oa, om in pairs:
                x = tensor_view(mem, ia, im).astype(np.float32)
                write_out(mem, oa, om, x * c + rotate_f32(x, interleaved) * s)
        return body
    return make
