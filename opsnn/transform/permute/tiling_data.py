"""Permute tiling struct and key, shared by the host and kernel halves."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class PermuteTilingKey(IntEnum):
    """One kernel; the strategy (copy, dma_permute, transpose) changes only its bytes."""

    PERMUTE = 0


@dataclass(frozen=True)
class PermuteTilingData:
    """How phase 1 tiled a Permute (one unit per element).

    strategy: "copy" (identity after merging), "dma_permute" (the last merged axis
    stays: runs of it rearranged by DMA) or "transpose" (the last axis moves: a Vector
    transpose in UB). numel, itemsize: elements and bytes per element. merged_perm /
    merged_shape: the permutation after merging axes. mte3_bytes: UB -> GM bytes of
    the whole kernel. vector: the UB-streaming struct.
    """

    strategy: str
    numel: int
    itemsize: int
    merged_perm: tuple[int, ...]
    merged_shape: tuple[int, ...]
    mte3_bytes: int
    vector: VectorTilingData

    @property
    def gm_bytes(self) -> int:
        """Useful GM bytes: self read once, plus what MTE3 writes."""
        return self.numel * self.itemsize + self.mte3_bytes

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per element: (MTE2 in, MTE3 out, VECTOR operand) bytes; the Vector unit only
        works for a transpose (itemsize bytes per element)."""
        vec = self.itemsize if self.strategy == "transpose" else 0
        return self.itemsize, self.mte3_bytes / self.numel, vec
