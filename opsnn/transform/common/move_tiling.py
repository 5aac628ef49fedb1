"""The shared tiling of the transform ops: a pure function of (chip, byte totals); no
device.

Every op of this family is tiled the same way: ``units`` work units (output elements
unless the op says otherwise) streamed through UB by
:func:`~opsnn.base.vector_tiling.vector_tiling`, with the whole kernel's MTE2
(GM -> UB), MTE3 (UB -> GM) and Vector operand bytes spread evenly over the units.
Each op's ``tiling.py`` only computes those three totals from its shapes (its own
cost formula, documented there) and calls :func:`move_tiling`.

DMA moves whole 32 B data blocks (Ascend C ``DataCopy`` counts ``blockLen`` in 32 B
units): :func:`row_bytes` rounds every contiguous run up to that granule.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult, align_up
from ...base.vector_tiling import VectorTilingData, vector_tiling

#: GM <-> UB DMA granule in bytes (Ascend C DataCopy: blockLen in 32 B data blocks)
DMA_BLOCK_BYTES = 32


class MoveTilingKey(IntEnum):
    """Kernel variants: DMA only, DMA + a Vector pass, index-driven gather/scatter."""

    COPY = 0
    VECTOR = 1
    GATHER = 2
    SCATTER = 3


@dataclass(frozen=True)
class MoveTilingData:
    """How phase 1 tiled one transform kernel.

    label: the kernel name ("Pad", "Split", ...). strategy: the op's variant
    ("constant", "reflect", "dcr", ...). units: work units. mte2_bytes / mte3_bytes /
    vector_bytes: the whole kernel's GM -> UB, UB -> GM and Vector operand bytes.
    params: op-specific (name, value) pairs recorded for tests and traces.
    vector: the UB-streaming struct.
    """

    label: str
    strategy: str
    units: int
    mte2_bytes: int
    mte3_bytes: int
    vector_bytes: int
    vector: VectorTilingData
    params: tuple = ()

    def unit_bytes(self) -> tuple[float, float, float]:
        """Per unit: (MTE2 in, MTE3 out, VECTOR operand) bytes."""
        n = self.units
        return self.mte2_bytes / n, self.mte3_bytes / n, self.vector_bytes / n

    @property
    def gm_bytes(self) -> int:
        """GM bytes moved by the kernel (MTE2 + MTE3)."""
        return self.mte2_bytes + self.mte3_bytes


def row_bytes(shape, itemsize: int) -> int:
    """DMA bytes of a row-major ``shape``: ``prod(shape[:-1])`` runs of the last axis,
    each rounded up to whole 32 B blocks (a 0-D shape is one element)."""
    shape = tuple(int(d) for d in shape) or (1,)
    runs = 1
    for d in shape[:-1]:
        runs *= d
    return runs * align_up(shape[-1] * itemsize, DMA_BLOCK_BYTES) if shape[-1] else 0


def move_tiling(chip: ChipConfig, label: str, strategy: str, units: int, mte2_bytes: int, mte3_bytes: int,
                vector_bytes: int = 0, key: MoveTilingKey | None = None, params: tuple = (),
                fixed_ub_bytes: int = 0) -> TilingResult:
    """Tile a transform kernel of ``units`` (> 0) units moving the given byte totals.
    ``key`` defaults to VECTOR when there is Vector work, else COPY. Returns a
    :class:`TilingResult` (workspace 0: Contiguous copies come on top) whose ``data``
    is a :class:`MoveTilingData`. Raises AclnnError(561002) if one unit does not fit UB."""
    units = max(int(units), 1)
    mte2, mte3, vec = int(mte2_bytes), int(mte3_bytes), int(vector_bytes)
    vt = vector_tiling(chip, label, units, mte2 / units, mte3 / units,
                       tmp_bytes_per_unit=vec / units if vec else 0.0, fixed_ub_bytes=fixed_ub_bytes)
    if key is None:
        key = MoveTilingKey.VECTOR if vec else MoveTilingKey.COPY
    td = MoveTilingData(label, strategy, units, mte2, mte3, vec, vt, tuple(params))
    return TilingResult(strategy, int(key), vt.block_dim, 0, td)
