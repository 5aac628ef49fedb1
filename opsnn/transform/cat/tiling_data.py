"""Cat tiling struct and key, shared by the host and kernel halves."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class CatTilingKey(IntEnum):
    """One kernel: DMA copies of every input's part of ``out`` (+ a cast pass)."""

    COPY = 0


@dataclass(frozen=True)
class CatTilingData:
    """How phase 1 tiled a Cat (one unit per output element).

    numel: elements of out. itemsize: bytes per element of out. mte2_bytes: every
    concatenated input read once. mte3_bytes: every input's part of out written as
    ``outer`` runs, each rounded to whole 32 B blocks. cast: some input's dtype
    differs from out's (one Vector pass, itemsize bytes per element). vector: the
    UB-streaming struct.
    """

    numel: int
    itemsize: int
    mte2_bytes: int
    mte3_bytes: int
    cast: bool
    vector: VectorTilingData

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per output element: (MTE2 in, MTE3 out, VECTOR operand) bytes."""
        return self.mte2_bytes / self.numel, self.mte3_bytes / self.numel, self.itemsize if self.cast else 0
