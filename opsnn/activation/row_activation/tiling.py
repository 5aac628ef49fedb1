"""Row-activation tiling: a pure function of (chip, rows, row length, itemsize,
kernel); no device. ``one_pass`` (key 0) when one row in + out double-buffered plus
an fp32 work row (two for 16-bit inputs) fits UB, else ``multi_pass`` (key 1), the
row streamed :data:`.tiling_data.ROW_COSTS` times. One unit is one element; the
UB factor is rounded to whole rows in one_pass only through the per-element slot.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from .tiling_data import ROW_COSTS, RowTilingData, RowTilingKey


def row_tiling(chip: ChipConfig, kernel: str, rows: int, d: int, itemsize: int) -> TilingResult:
    """Tile ``kernel`` over ``rows`` rows of ``d`` elements; workspace 0."""
    passes, stream_reads = ROW_COSTS[kernel]
    tmp = 4 if itemsize == 4 else 8
    fits = 2 * (2 * d * itemsize) + d * tmp <= chip.ub_bytes
    strategy, key, reads = ("one_pass", RowTilingKey.ONE_PASS, 1) if fits else \
        ("multi_pass", RowTilingKey.MULTI_PASS, stream_reads)
    passes += 0 if itemsize == 4 else 2
    vt = vector_tiling(chip, kernel, rows * d, reads * itemsize, itemsize, tmp_bytes_per_unit=tmp)
    td = RowTilingData(strategy, rows, d, itemsize, reads, passes, vt)
    return TilingResult(strategy, int(key), vt.block_dim, 0, td)
