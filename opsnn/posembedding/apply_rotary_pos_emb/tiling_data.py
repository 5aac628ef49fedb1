"""ApplyRotaryPosEmb tiling struct and key (host and kernel halves read them)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData


class ApplyRotaryPosEmbTilingKey(IntEnum):
    """Kernel variant: the rotation of the head vector."""

    HALF = 0          # rotate_half: cat(-x2, x1) (CANN's formula)
    INTERLEAVE = 1    # pairs (x0, x1) -> (-x1, x0) (simulator extension, ``rotaryMode``)


#: Vector instructions per element [A]: Muls -1 and a copy build the rotated row
#: (Gather for interleaved pairs: also 2), Mul by cos, Mul by sin, Add
VEC_PASSES = 5
#: compute-typed scratch rows in UB per head row: the rotated row and one product [A]
TMP_ROWS = 2


@dataclass(frozen=True)
class ApplyRotaryPosEmbTilingData:
    """One unit is one head row of D elements of query or key (rows_q + rows_k units).

    d: head size. rows_q / rows_k: B*S*N rows of each. cos_rows: rows of cos (and of
    sin) after broadcast over B and S, loaded per tile and shared by the N heads of a
    token. in/out/vec/tmp_bytes_per_unit: MTE2, MTE3, VECTOR operand and UB scratch
    bytes per row (cos and sin amortised over the heads). casts: 16-bit in/out casts
    per element (0 or 2). gm_bytes: useful GM bytes. vector: the UB-streaming struct.
    """

    d: int
    rows_q: int
    rows_k: int
    cos_rows: int
    in_bytes_per_unit: float
    out_bytes_per_unit: float
    vec_bytes_per_unit: float
    tmp_bytes_per_unit: float
    casts: int
    gm_bytes: int
    vector: VectorTilingData
