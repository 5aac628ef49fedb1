"""Reduce tiling struct and key, shared by the host and kernel halves."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class ReduceTilingKey(IntEnum):
    """One kernel variant; the empty-reduction fill is the same kernel with no input."""

    REDUCE = 0


@dataclass(frozen=True)
class ReduceTilingData:
    """How phase 1 tiled a ReduceSum / Mean.

    strategy: "reduce" (one unit per input element) or "fill" (an empty reduction:
    one unit per output element, 0 or NaN written). numel / out_numel: elements of
    self and out. itemsize / out_itemsize: bytes per element. cast: 1 when the Vector
    unit needs a cast pass (self is not already fp32, or an int of out's width).
    vector: the UB-streaming struct.
    """

    strategy: str
    numel: int
    out_numel: int
    itemsize: int
    out_itemsize: int
    cast: int
    vector: VectorTilingData

    @property
    def gm_bytes(self) -> int:
        """Useful GM bytes: self read once, out written once."""
        return self.numel * self.itemsize + self.out_numel * self.out_itemsize

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per unit: (MTE2 in, MTE3 out, VECTOR operand) bytes. reduce: itemsize in,
        the outputs spread evenly, one fp32 add (+ a cast) per element; fill: nothing
        in, one output out and through the Vector unit."""
        if self.strategy == "fill":
            return 0, self.out_itemsize, self.out_itemsize
        return self.itemsize, self.out_numel * self.out_itemsize / self.numel, 4 * (1 + self.cast)
