"""Tiling of the extra reductions: a pure function of (chip, element counts, dtypes,
kernel); no device. The bandwidth-bound model of :mod:`..common.tiling` (one unit per
input element; an empty reduction is a fill of the outputs) with the kernel's pass
count (:data:`.tiling_data.REDUCE_EXT_PASSES`)."""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.dtypes import aclDataType as T
from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from ..common.tiling import needs_cast
from .tiling_data import REDUCE_EXT_PASSES, ReduceExtTilingData, ReduceTilingKey


def reduce_ext_tiling(chip: ChipConfig, name: str, kernel: str, numel: int, out_numel: int, self_dtype: T,
                      out_dtype: T, itemsize: int, out_itemsize: int) -> TilingResult:
    """Tile ``kernel`` reducing ``numel`` elements into ``out_numel`` (> 0); returns a
    :class:`TilingResult` with a :class:`ReduceExtTilingData`, workspace 0."""
    passes = REDUCE_EXT_PASSES[kernel]
    if numel == 0:
        vt = vector_tiling(chip, name, out_numel, 0, out_itemsize)
        td = ReduceExtTilingData("fill", 0, out_numel, itemsize, out_itemsize, 0, vt, passes)
    else:
        cast = needs_cast(self_dtype, out_dtype, itemsize)
        vt = vector_tiling(chip, name, numel, itemsize, out_numel * out_itemsize / numel)
        td = ReduceExtTilingData("reduce", numel, out_numel, itemsize, out_itemsize, cast, vt, passes)
    return TilingResult(td.strategy, int(ReduceTilingKey.REDUCE), vt.block_dim, 0, td)
