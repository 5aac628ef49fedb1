"""Embedding tiling: a pure function of (chip, lookups, embedding_dim, itemsizes); no
device.

Tile program (assumption): a unit is one chunk of one gathered row. A row is cut into
``chunks_per_row`` equal chunks when two queue slots of (the row chunk in, rounded to
32 B, + the chunk out) overflow the UB left after the index tile
(:data:`INDEX_UB_BYTES`) and 128 B of slack; chunks are a whole number of 32 B of
elements. Per unit MTE2 fetches the chunk from the weight row (a random row: its
bytes rounded up to whole 32 B DMA blocks) plus its share of the index, and MTE3
writes the chunk to ``out``; no Vector work (a pure gather, as a DataCopy-only kernel).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult, ceil_div
from ...base.vector_tiling import vector_tiling
from .tiling_data import INDEX_UB_BYTES, EmbeddingTilingData, EmbeddingTilingKey, unit_bytes


def embedding_tiling(chip: ChipConfig, lookups: int, embedding_dim: int, itemsize: int,
                     index_itemsize: int) -> TilingResult:
    """Tile an Embedding of ``lookups`` (> 0) rows of ``embedding_dim`` (> 0) elements of
    ``itemsize`` bytes, indexed by ``index_itemsize``-byte indices. Returns a
    :class:`TilingResult` whose ``data`` is an :class:`EmbeddingTilingData`; workspace 0."""
    e, d = itemsize, embedding_dim
    step = max(1, 32 // e)
    # two queue slots of (row chunk in, rounded to 32 B, + chunk out)
    c_max = max(step, (chip.ub_bytes - INDEX_UB_BYTES - 128) // (4 * e) // step * step)
    cpr = ceil_div(d, c_max)
    c = ceil_div(d, cpr)
    mte2, mte3, _ = unit_bytes(c, cpr, e, index_itemsize)
    vt = vector_tiling(chip, "Embedding", lookups * cpr, mte2, mte3, fixed_ub_bytes=INDEX_UB_BYTES)
    td = EmbeddingTilingData(lookups, d, e, index_itemsize, c, cpr, vt)
    return TilingResult("gather", int(EmbeddingTilingKey.GATHER), vt.block_dim, 0, td)
