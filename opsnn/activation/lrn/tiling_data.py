"""LRN tiling struct and keys: the one definition both halves read."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class LrnTilingKey(IntEnum):
    """Kernel variants: a unit is a whole channel column, or a chunk of it plus halo."""

    CHANNEL_COLUMN = 0
    CHANNEL_CHUNK = 1


def scratch_bytes_per_channel(item: int) -> int:
    """UB scratch per channel of a unit (bytes): fp32 square and window sum (+ an fp32
    cast of the input for 16-bit types)."""
    return 8 + (4 if item != 4 else 0)


@dataclass(frozen=True)
class LrnTilingData:
    """How phase 1 tiled an LRN over self [N, C, D1..Dk] (``spatial`` = prod(D)).

    strategy: "channel_column" or "channel_chunk". n, channels, spatial, size (the
    window), itemsize (bytes). unit_channels: channels a unit normalises (C for a
    column). chunks_per_column: units per column, ceil(C / unit_channels); each chunk
    but one also reads its ``size - 1`` halo channels. vector: the UB-streaming struct
    (None only inside tiling, while the per-unit bytes it is sized from are computed).
    """

    strategy: str
    n: int
    channels: int
    spatial: int
    size: int
    itemsize: int
    unit_channels: int
    chunks_per_column: int
    vector: VectorTilingData | None

    @property
    def units(self) -> int:
        return self.n * self.spatial * self.chunks_per_column

    def totals(self) -> tuple[int, int, int]:
        """(MTE2 in, MTE3 out, VECTOR operand) bytes of the whole kernel. Vector passes
        per element: square, ``size`` window adds, scale, add bias, ln, mul beta, exp,
        divide (+ 2 casts for 16-bit), in fp32."""
        cols, c, item = self.n * self.spatial, self.channels, self.itemsize
        passes = self.size + 7 + (2 if item != 4 else 0)
        return (cols * (c + (self.chunks_per_column - 1) * (self.size - 1)) * item, cols * c * item,
                cols * c * passes * 4)

    def unit_bytes(self) -> tuple[float, float, float, float]:
        """Per unit (the average of the units): (MTE2 in, MTE3 out, VECTOR, UB scratch) bytes."""
        i, o, v = self.totals()
        u = self.units
        return i / u, o / u, v / u, self.unit_channels * scratch_bytes_per_channel(self.itemsize)
