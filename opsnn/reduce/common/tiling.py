"""ReduceSum / Mean tiling: a pure function of (chip, element counts, dtypes); no device.

One strategy (a bandwidth-bound model; assumption): one unit per input element;
MTE2 reads it once (itemsize bytes); the Vector unit does one fp32 add per element
(4 B) plus a cast pass when the input is not already fp32 or an int32/int64 of the
output dtype; MTE3 writes the outputs, spread evenly over the units. A reduction
with an empty axis but a non-empty ``out`` is a ``fill``: one unit per output element.
The cross-block combine of a reduction split over blocks is not modelled.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.dtypes import aclDataType as T
from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from .tiling_data import ReduceTilingData, ReduceTilingKey


def needs_cast(self_dtype: T, out_dtype: T, itemsize: int) -> int:
    """1 when the Vector unit needs a cast pass before accumulating, else 0."""
    same_fp32 = self_dtype == out_dtype and itemsize == 4
    same_int = self_dtype in (T.ACL_INT32, T.ACL_INT64) and out_dtype == self_dtype
    return 0 if same_fp32 or same_int else 1


def reduce_tiling(chip: ChipConfig, name: str, numel: int, out_numel: int, self_dtype: T, out_dtype: T,
                  itemsize: int, out_itemsize: int) -> TilingResult:
    """Tile a reduction of ``numel`` elements of ``self_dtype`` (``itemsize`` bytes)
    into ``out_numel`` (> 0) of ``out_dtype``; ``numel`` 0 gives the fill. Returns a
    :class:`TilingResult` whose ``data`` is a :class:`ReduceTilingData`; workspace 0
    (contiguous copies come on top)."""
    if numel == 0:  # fill: nothing in, one output element per unit
        vt = vector_tiling(chip, name, out_numel, 0, out_itemsize)
        td = ReduceTilingData("fill", 0, out_numel, itemsize, out_itemsize, 0, vt)
    else:
        cast = needs_cast(self_dtype, out_dtype, itemsize)
        vt = vector_tiling(chip, name, numel, itemsize, out_numel * out_itemsize / numel)
        td = ReduceTilingData("reduce", numel, out_numel, itemsize, out_itemsize, cast, vt)
    return TilingResult(td.strategy, int(ReduceTilingKey.REDUCE), vt.block_dim, 0, td)
