"""DequantizeLinear kernel half: tile program (:func:`opsnn.quant.common.affine.affine_spec`)
and numpy body, out = (float32(x) - zeroPoint) * scale, stored in out's dtype."""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ..common.affine import affine_spec, dequantize_values
from .tiling_data import VectorTilingData


def tile_program(td: VectorTilingData, in_itemsize: int, out_itemsize: int, param_bytes: int, args: dict,
                 tiling_key: int) -> KernelSpec:
    """The AIV spec "DequantizeLinear" of a kernel tiled as ``td``."""
    return affine_spec("DequantizeLinear", td, in_itemsize, out_itemsize, param_bytes, args, tiling_key)


def dequantize_body(x_ref, scale_ref, zp_ref, out_ref, axis: int):
    """Body factory: reads x, scale (and zeroPoint), writes out."""
    def make(addrs, ws):
        ax, asc, ao = x_ref.addr(addrs, ws), scale_ref.addr(addrs, ws), out_ref.addr(addrs, ws)
        az = zp_ref.addr(addrs, ws) if zp_ref is not None else None

        def body(mem):
            x = tensor_view(mem, ax, x_ref.meta)
            s = np.asarray(tensor_view(mem, asc, scale_ref.meta))
            z = np.asarray(tensor_view(mem, az, zp_ref.meta)) if zp_ref is not None else None
            write_out(mem, ao, out_ref.meta, dequantize_values(x, s, z, axis))
        return body
    return make
