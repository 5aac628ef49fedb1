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


#: training: per-channel fp32 partial (sum, sum of squares) a reduce block leaves in the
#: workspace (bytes per channel per block)
PARTIAL_BYTES_PER_CHANNEL = 8


class BatchNormTrainingTilingKey(IntEnum):
    """Training-mode kernels (two launches, as CANN's BNTrainingReduce then
    BNTrainingUpdate): pass 1 per-channel statistics, pass 2 normalise."""

    TRAINING_REDUCE = 2
    TRAINING_UPDATE = 3


@dataclass(frozen=True)
class BatchNormTrainingTilingData:
    """How phase 1 tiled a training-mode BatchNorm; units are elements of the input.

    channels: C. inner: elements per (n, c) plane. batch: N. itemsize: bytes per
    element. reduce / update: the UB-streaming structs of pass 1 (x in, nothing out)
    and pass 2 (x in, y out). workspace_bytes: the partial sums of every reduce block,
    ``reduce.block_dim * C * 8`` B (fp32 sum and sum of squares per channel), 32 B
    aligned.
    """

    channels: int
    inner: int
    batch: int
    itemsize: int
    reduce: VectorTilingData
    update: VectorTilingData
    workspace_bytes: int

    @property
    def count(self) -> int:
        """Elements reduced per channel (N * prod(spatial))."""
        return self.batch * self.inner

    def partial_load_bytes(self) -> int:
        """Bytes an update block reads before its first tile: every reduce block's
        partials of all C channels (each update block recomputes mean and var itself)
        plus weight, bias, running mean and var (16 B a channel)."""
        return self.reduce.block_dim * PARTIAL_BYTES_PER_CHANNEL * self.channels + \
            PARAM_BYTES_PER_CHANNEL * self.channels
