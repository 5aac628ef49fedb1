"""QuantMatmul tiling: a pure function of (chip, GEMM dims, out itemsize, scale mode).

One strategy, ``cube_int8``: the cube tiling of :mod:`opsnn.matmul.common.cube_tiling`
with 1-byte operands and the int8 cube rate (``ChipConfig.cube_int8_macs_per_cycle``,
16x32x16 on 910B: CANN platform config ``[DtypeMKN] DT_INT8=16,32,16``), so the base
tile's K is a multiple of the int8 K fractal (32) and L0A/L0B/L1 hold twice the K of
an fp16 tile. L0C holds the int32 accumulator (4 B per element, as fp32). The key
names the FixPipe dequant mode (:class:`QuantMatmulTilingKey`). No workspace.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.cube_tiling import cube_tiling
from .tiling_data import QuantMatmulTilingKey

#: bytes per int8 operand element
INT8_ITEMSIZE = 1


def quant_matmul_tiling(chip: ChipConfig, batch: int, m: int, n: int, k: int, out_itemsize: int,
                        key: QuantMatmulTilingKey = QuantMatmulTilingKey.PER_TENSOR) -> TilingResult:
    """Tile ``batch`` x [m, k] @ [k, n] int8 GEMM on ``chip`` writing ``out_itemsize``
    bytes per output element (2 for fp16/bf16, 1 for int8). Returns a
    :class:`TilingResult` (strategy "cube_int8", key ``key``, workspace 0) whose ``data``
    is a :class:`MatmulTilingData`. Raises AclnnError(561002) if no tile fits."""
    td = cube_tiling(chip, batch, m, n, k, INT8_ITEMSIZE, out_itemsize, "int8", name="QuantMatmulV4")
    return TilingResult("cube_int8", int(key), td.block_dim, 0, td, ("cube_int8",))
