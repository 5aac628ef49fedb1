"""DynamicQuantizeLinear kernel half: two tile programs and their numpy bodies.

Formula (ONNX DynamicQuantizeLinear, uint8):
  lo = min(0, min(x)), hi = max(0, max(x)); yScale = (hi - lo) / 255 (1/255 if hi == lo)
  yZeroPoint = rint(clip(-lo / yScale, 0, 255)); y = saturate(rint(x / yScale) + yZeroPoint)
Pass 1 (``DynamicQuantizeLinearMinMax``): each block reduces its slice to (min, max)
in workspace. Pass 2 (``DynamicQuantizeLinear``): each block's first tile reads every
partial (block_dim x 8 B), then quantizes its slice; block 0 writes yScale and
yZeroPoint. The numpy body of pass 1 stores the global (min, max) -- the combine of
the partials -- in the first 8 B of the workspace.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ...base.vector_tiling import vector_spec
from ..common.affine import affine_spec, quantize_values
from .tiling_data import PARTIAL_BYTES, DynamicQuantizeTilingData

#: fp32 Vector passes per element of the min/max pass (Min, Max) [A]
MINMAX_PASSES = 2


def tile_programs(td: DynamicQuantizeTilingData, in_itemsize: int, args: dict,
                  tiling_key: int) -> tuple[KernelSpec, KernelSpec]:
    """(min/max spec, quantize spec)."""
    red = vector_spec("DynamicQuantizeLinearMinMax", td.reduce, in_itemsize, 0, MINMAX_PASSES * 4,
                      tiling_key=tiling_key, args=dict(args, pass_="minmax"))
    quant = affine_spec("DynamicQuantizeLinear", td.quant, in_itemsize, 1, PARTIAL_BYTES * td.reduce.block_dim,
                        dict(args, pass_="quantize"), tiling_key)
    return red, quant


def scale_and_zero_point(lo: np.float32, hi: np.float32) -> tuple[np.float32, np.uint8]:
    """(yScale, yZeroPoint) from the range (float32 arithmetic, as the ONNX formula)."""
    lo, hi = np.float32(min(0.0, lo)), np.float32(max(0.0, hi))
    scale = np.float32(np.float32(1.0) if hi == lo else hi - lo) / np.float32(255)
    zp = np.rint(np.clip(np.float32(0) - lo / scale, 0, 255))
    return np.float32(scale), np.uint8(zp)


def minmax_body(x_ref, ws_off: int):
    """Body factory of pass 1: (min, max) of x as float32 at workspace + ws_off."""
    def make(addrs, ws):
        ax = x_ref.addr(addrs, ws)

        def body(mem):
            x = np.asarray(tensor_view(mem, ax, x_ref.meta), np.float32)
            part = np.array([x.min(), x.max()] if x.size else [0.0, 0.0], np.float32)
            mem.array(ws + ws_off, (2,), np.float32)[...] = part
        return body
    return make


def quantize_body(x_ref, y_ref, s_ref, z_ref, ws_off: int):
    """Body factory of pass 2: reads the range from workspace, writes y, yScale, yZeroPoint."""
    def make(addrs, ws):
        ax, ay, asc, az = (r.addr(addrs, ws) for r in (x_ref, y_ref, s_ref, z_ref))

        def body(mem):
            lo, hi = np.asarray(mem.array(ws + ws_off, (2,), np.float32))
            scale, zp = scale_and_zero_point(lo, hi)
            x = tensor_view(mem, ax, x_ref.meta)
            write_out(mem, ay, y_ref.meta, quantize_values(x, np.array([scale]), np.array([zp]), 0, np.uint8))
            write_out(mem, asc, s_ref.meta, np.full(s_ref.meta.view_shape, scale, np.float32))
            write_out(mem, az, z_ref.meta, np.full(z_ref.meta.view_shape, zp, np.uint8))
        return body
    return make
