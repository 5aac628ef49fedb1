"""Contiguous / ViewCopy tiling struct: the one definition the host half
(``tiling.py``) fills and the kernel half (``kernel.py``) reads."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData

#: GM <-> UB DMA granule in bytes (Ascend C DataCopy: blockLen in 32 B data blocks)
DMA_BLOCK_BYTES = 32


class CopyTilingKey(IntEnum):
    """One kernel variant: a strided gather (or scatter) streamed through UB."""

    COPY = 0


@dataclass(frozen=True)
class CopyTilingData:
    """How phase 1 tiled one copy kernel (one unit per element of the view).

    label: "Contiguous" (strided view -> row-major buffer) or "ViewCopy" (the reverse).
    numel: elements copied. mte2_bytes / mte3_bytes: GM -> UB and UB -> GM bytes of the
    whole copy (the DMA-block formula of ``tiling.py``). broadcast: the view has a
    stride-0 dim, expanded by the Vector unit (itemsize bytes per element).
    itemsize: bytes per element. vector: the UB-streaming struct.
    """

    label: str
    numel: int
    itemsize: int
    mte2_bytes: int
    mte3_bytes: int
    broadcast: bool
    vector: VectorTilingData

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per element: (MTE2 in, MTE3 out, VECTOR operand) bytes."""
        n = self.numel
        return self.mte2_bytes / n, self.mte3_bytes / n, (self.itemsize if self.broadcast else 0)
