"""The pooling tiling struct and keys, shared by every pooling op's host and kernel
halves (ops-nn's ``op_kernel/*_tiling_data.h`` and ``*_tiling_key.h``)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class PoolTilingKey(IntEnum):
    """What one work unit is: a whole output row, a chunk of an output row, or a
    chunk of the kernel rows of one output (accumulated in UB)."""

    ROW = 0
    ROW_CHUNK = 1
    KERNEL_ROW_CHUNK = 2


#: strategy name of each key (the registered :class:`~opsnn.base.tiling_base.TilingStrategy` names)
STRATEGY_NAMES = {PoolTilingKey.ROW: "row", PoolTilingKey.ROW_CHUNK: "row_chunk",
                  PoolTilingKey.KERNEL_ROW_CHUNK: "kernel_row_chunk"}


@dataclass(frozen=True)
class PoolTilingData:
    """How phase 1 tiled a pooling op.

    strategy: "row", "row_chunk" or "kernel_row_chunk". planes / ho / wo: planes and
    output size. rows_in: input rows one output row reads. unit_outputs (``wc``):
    outputs of one row per unit. unit_kernel_rows (``r``): kernel rows per unit.
    units: planes * ho * ceil(wo / wc) * ceil(rows_in / r). in_bytes / out_bytes:
    exact GM traffic of the whole kernel (bytes); vec_bytes: operand bytes through the
    Vector unit. vector: the UB-streaming struct.
    """

    strategy: str
    planes: int
    ho: int
    wo: int
    rows_in: int
    unit_outputs: int
    unit_kernel_rows: int
    units: int
    in_bytes: int
    out_bytes: int
    vec_bytes: float
    vector: VectorTilingData

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per unit (the totals spread evenly): (MTE2 in, MTE3 out, VECTOR operand) bytes."""
        return self.in_bytes / self.units, self.out_bytes / self.units, self.vec_bytes / self.units
