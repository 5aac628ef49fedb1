"""Embedding tiling struct and key, shared by the host and kernel halves."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.tiling_base import align_up
from ...base.vector_tiling import VectorTilingData

#: DMA granule (bytes): Ascend C DataCopy moves whole 32 B blocks
DMA_BLOCK_BYTES = 32

#: UB bytes kept for the index tile (assumption)
INDEX_UB_BYTES = 256


class EmbeddingTilingKey(IntEnum):
    """One kernel: a DataCopy-only row gather."""

    GATHER = 0


@dataclass(frozen=True)
class EmbeddingTilingData:
    """How phase 1 tiled an Embedding: a unit is one chunk of one gathered row.

    lookups: indices (rows gathered). embedding_dim: D. itemsize / index_itemsize:
    bytes per weight / index element. chunk_elems (``c``) and chunks_per_row: a row
    is cut into equal chunks when two double-buffered copies of it overflow UB.
    vector: the UB-streaming struct.
    """

    lookups: int
    embedding_dim: int
    itemsize: int
    index_itemsize: int
    chunk_elems: int
    chunks_per_row: int
    vector: VectorTilingData

    @property
    def units(self) -> int:
        return self.lookups * self.chunks_per_row

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per unit: (MTE2 in, MTE3 out, VECTOR) bytes: the chunk fetched from a random
        weight row (rounded up to whole 32 B DMA blocks) plus its share of the index;
        the chunk written; no Vector work."""
        return unit_bytes(self.chunk_elems, self.chunks_per_row, self.itemsize, self.index_itemsize)


def unit_bytes(c: int, cpr: int, item: int, index_item: int) -> tuple[float, float, float]:
    """See :meth:`EmbeddingTilingData.unit_bytes` (``c``: chunk elements, ``cpr``: chunks per row)."""
    return align_up(c * item, DMA_BLOCK_BYTES) + index_item / cpr, c * item, 0
