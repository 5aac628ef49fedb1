"""DequantizeLinear tiling: :func:`opsnn.quant.common.affine.affine_tiling` over x's
elements, scale / zeroPoint resident in UB. Pure; no device."""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.affine import affine_tiling
from .tiling_data import DequantizeTilingKey


def dequantize_tiling(chip: ChipConfig, numel: int, in_itemsize: float, out_itemsize: int, param_bytes: int,
                      key: DequantizeTilingKey) -> TilingResult:
    """Tile ``numel`` elements; raises AclnnError(561002) if the vectors leave no UB."""
    return affine_tiling(chip, "DequantizeLinear", numel, in_itemsize, out_itemsize, param_bytes, int(key))
