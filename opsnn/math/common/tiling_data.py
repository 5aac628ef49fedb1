"""Tiling struct and key of the elementwise families: the one definition the host
half (:mod:`.tiling`) fills and the kernel half (:mod:`.kernel`) reads."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class EltwiseTilingKey(IntEnum):
    """One kernel variant: every elementwise kernel streams UB tiles of output elements."""

    STREAM = 0


@dataclass(frozen=True)
class EltwiseCost:
    """One row of a family's kernel table, as tiling sees it: Vector instructions per
    element (``passes``, assumptions of the Ascend C decomposition: module docstring
    of :mod:`.tiling`) and extra compute-typed scratch rows in UB (``tmp``)."""

    passes: int
    tmp: int = 0


@dataclass(frozen=True)
class EltwiseTilingData:
    """How phase 1 tiled an elementwise kernel over ``n`` output elements (one unit
    each).

    name: kernel label (trace name). in_bytes_per_unit / out_bytes_per_unit: MTE2 /
    MTE3 bytes per element (a broadcast input counted at its own size).
    vec_bytes_per_unit: VECTOR operand bytes per element. tmp_bytes_per_unit: UB
    scratch per element. casts / broadcasts: fused cast and broadcast passes.
    gm_bytes: useful GM bytes of the kernel. vector: the UB-streaming struct.
    """

    name: str
    n: int
    in_bytes_per_unit: float
    out_bytes_per_unit: float
    vec_bytes_per_unit: float
    tmp_bytes_per_unit: float
    casts: int
    broadcasts: int
    gm_bytes: int
    vector: VectorTilingData
