"""Cat tiling: a pure function of (chip, out shape, dim, the inputs' sizes along dim,
their bytes, dtypes); no device.

Tile program (one unit per output element; assumption): pure data movement. MTE2
reads each input once; MTE3 writes each input's part of ``out`` as ``outer`` runs of
``size_i * inner`` elements, each run rounded up to whole 32 B DMA blocks (Ascend C
DataCopy granule); the Vector unit does one cast pass (out itemsize per element) only
when some input's dtype differs from ``out``'s.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult, align_up
from ...base.vector_tiling import vector_tiling
from .tiling_data import CatTilingData, CatTilingKey

#: DMA granule (bytes): Ascend C DataCopy moves whole 32 B blocks
DMA_BLOCK_BYTES = 32


def cat_tiling(chip: ChipConfig, out_shape: tuple[int, ...], axis: int, sizes: list[int], in_bytes: list[int],
               itemsize: int, cast: bool) -> TilingResult:
    """Tile a Cat into a non-empty ``out_shape`` along ``axis``: ``sizes[i]`` and
    ``in_bytes[i]`` are each concatenated input's extent along ``axis`` and its bytes;
    ``itemsize``: out's bytes per element; ``cast``: some input's dtype is not out's.
    Returns a :class:`TilingResult` whose ``data`` is a :class:`CatTilingData`."""
    outer = inner = 1
    for d in out_shape[:axis]:
        outer *= int(d)
    for d in out_shape[axis + 1:]:
        inner *= int(d)
    n = outer * out_shape[axis] * inner
    mte2 = sum(in_bytes)
    mte3 = sum(outer * align_up(s * inner * itemsize, DMA_BLOCK_BYTES) for s in sizes)
    vt = vector_tiling(chip, "Cat", n, mte2 / n, mte3 / n)
    td = CatTilingData(n, itemsize, mte2, mte3, cast, vt)
    return TilingResult("copy", int(CatTilingKey.COPY), vt.block_dim, 0, td)
