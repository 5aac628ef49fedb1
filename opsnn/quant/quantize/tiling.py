"""Quantize tiling: :func:`opsnn.quant.common.affine.affine_tiling` over the elements of
x, the scales / zeroPoints vectors resident in UB. A pure function of (chip, numel,
itemsizes, vector bytes, key); no device."""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.affine import affine_tiling
from .tiling_data import QuantizeTilingKey


def quantize_tiling(chip: ChipConfig, numel: int, in_itemsize: float, out_itemsize: int, param_bytes: int,
                    key: QuantizeTilingKey) -> TilingResult:
    """Tile ``numel`` elements (``in_itemsize`` B in, ``out_itemsize`` B out,
    ``param_bytes`` of scales + zeroPoints in UB). Raises AclnnError(561002) when the
    vectors leave no UB for a tile."""
    return affine_tiling(chip, "Quantize", numel, in_itemsize, out_itemsize, param_bytes, int(key))
