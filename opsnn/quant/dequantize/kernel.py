"""DequantizeLinear kernel half: tile program (:func:`opsnn.quant.common.affine.affine_spec`)
and numpy body, out = (float32(x) - zeroPoint) * scale, stored in out's dtype."""
from __future__ import annotations

from npu_sim.program import KernelSpec

from ..common.affine import affine_spec, dequantize_values
from ..common.affine_op import affine_body
from .tiling_data import VectorTilingData


def tile_program(td: VectorTilingData, in_itemsize: int, out_itemsize: int, param_bytes: int, args: dict,
                 tiling_key: int) -> KernelSpec:
    """The AIV spec "DequantizeLinear" of a kernel tiled as ``td``."""
    return affine_spec("DequantizeLinear", td, in_itemsize, out_itemsize, param_bytes, args, tiling_key)


def dequantize_body(x_ref, scale_ref, zp_ref, out_ref, axis: int):
    """Body factory (the family's :func:`~opsnn.quant.common.affine_op.affine_body`)."""
    return affine_body(x_ref, scale_ref, zp_ref, out_ref, lambda x, s, z: dequantize_values(x, s, z, axis))
