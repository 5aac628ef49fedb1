"""DynamicQuantizeLinear tiling: two vector structs (the min/max pass and the quantize
pass) and the key."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ..common.affine import VectorTilingData

#: bytes of one block's partial (min, max) in workspace (two float32)
PARTIAL_BYTES = 8


class DynamicQuantizeTilingKey(IntEnum):
    """One variant: per-tensor uint8."""

    PER_TENSOR_UINT8 = 0


@dataclass(frozen=True)
class DynamicQuantizeTilingData:
    """``reduce``: the min/max pass over x (each block writes PARTIAL_BYTES to
    workspace); ``quant``: the quantize pass (each block first reads every partial)."""

    reduce: VectorTilingData
    quant: VectorTilingData

    @property
    def workspace_bytes(self) -> int:
        """The partials: PARTIAL_BYTES per block of the min/max pass."""
        return PARTIAL_BYTES * self.reduce.block_dim
