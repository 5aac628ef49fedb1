"""BatchNorm tiling struct and keys: the one definition both halves read."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.tiling_base import ceil_div
from ...base.vector_tiling import VectorTilingData

#: weight, bias, mean, var as fp32, folded in place into scale and shift (bytes per channel)
PARAM_BYTES_PER_CHANNEL = 16


class BatchNormTilingKey(IntEnum):
    """Kernel variants: all per-channel parameters resident in UB, or a quarter-UB
    window of them reloaded as the block walks the channels."""

    RESIDENT_PARAMS = 0
    STREAMED_PARAMS = 1


@dataclass(frozen=True)
class BatchNormTilingData:
    """How phase 1 tiled an inference BatchNorm; units are elements of the input.

    channels: C (dim 1). inner: elements per (n, c) plane, prod(shape[2:]) (1 for
    [N, C]). itemsize: bytes per element of input/output. resident: the parameters
    stay in UB (key 0). vector: the UB-streaming struct.
    """

    channels: int
    inner: int
    itemsize: int
    resident: bool
    vector: VectorTilingData

    @property
    def tiling_key(self) -> BatchNormTilingKey:
        return BatchNormTilingKey.RESIDENT_PARAMS if self.resident else BatchNormTilingKey.STREAMED_PARAMS

    def param_load_bytes(self, units: int) -> int:
        """Bytes of parameters a block of ``units`` elements loads (and folds) before
        its first tile: 16 B per channel it spans (its elements cross at most
        ``ceil(units / inner) + 1`` channels); resident, no more than C of them."""
        span = ceil_div(units, self.inner) + 1
        return PARAM_BYTES_PER_CHANNEL * (min(self.channels, span) if self.resident else span)
