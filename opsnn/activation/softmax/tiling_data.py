"""Softmax tiling struct and keys: the one definition both halves read (ops-nn's
``op_kernel/*_tiling_data.h`` and ``*_tiling_key.h``)."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData

#: UB bytes for the per-row running max and sum (two 32 B blocks)
FIXED_UB_BYTES = 64


class SoftmaxTilingKey(IntEnum):
    """Kernel variants: a whole row per unit, or a row cut into chunks read three times."""

    ONE_PASS = 0
    MULTI_PASS = 1


@dataclass(frozen=True)
class SoftmaxTilingData:
    """How phase 1 tiled a Softmax over a [rows, d] view (rows along every other axis).

    strategy: "one_pass" or "multi_pass". rows: rows normalised. row_elems: d.
    itemsize: bytes per element of self/out. chunk_elems / chunks_per_row: the
    chunking of a row (one_pass: d and 1). vector: the UB-streaming struct.
    """

    strategy: str
    rows: int
    row_elems: int
    itemsize: int
    chunk_elems: int
    chunks_per_row: int
    vector: VectorTilingData

    def unit_bytes(self) -> tuple[float, float, float, float]:
        """Per work unit (one row, or one average chunk of ``d / chunks_per_row``
        elements): (MTE2 in, MTE3 out, VECTOR operand bytes, UB scratch) bytes.
        one_pass: passes max, sub, exp, sum, div (+ 2 casts) in fp32; multi_pass: each
        chunk read three times, 7 passes (+ 3 casts)."""
        return unit_bytes(self.strategy, self.row_elems, self.chunks_per_row, self.chunk_elems, self.itemsize)


def unit_bytes(strategy: str, d: int, cpr: int, c: int, item: int) -> tuple[float, float, float, float]:
    """See :meth:`SoftmaxTilingData.unit_bytes` (``c``: chunk elements)."""
    tmp_per_elem = 4 if item == 4 else 8          # fp32 exp row (+ fp32 cast row)
    cast = item != 4
    if strategy == "one_pass":
        return d * item, d * item, (5 + (2 if cast else 0)) * d * 4, d * tmp_per_elem
    avg = d / cpr
    return 3 * avg * item, avg * item, (7 + (3 if cast else 0)) * avg * 4, c * tmp_per_elem
