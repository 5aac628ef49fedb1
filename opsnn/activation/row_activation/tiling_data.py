"""Tiling struct, key and cost table of the row activations (LogSoftmax, Hardmax).

Passes per element (assumptions, fp32): LogSoftmax max, sub, exp, sum, ln-and-sub
= 5; Hardmax max, compare-with-max, first-index select = 3. 16-bit inputs add a cast
in and a cast out. When a row does not fit UB the row is streamed several times
(LogSoftmax 3 reads: max, sum of exp, write; Hardmax 2: max, write).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.vector_tiling import VectorTilingData

#: kernel -> (Vector passes per element, reads of each element when the row is streamed)
ROW_COSTS: dict[str, tuple[int, int]] = {"LogSoftmax": (5, 3), "Hardmax": (3, 2)}


class RowTilingKey(IntEnum):
    """A whole row resident in UB, or a row streamed ``reads`` times."""

    ONE_PASS = 0
    MULTI_PASS = 1


@dataclass(frozen=True)
class RowTilingData:
    """How phase 1 tiled a row activation over ``rows`` rows of ``row_elems``.

    strategy: "one_pass" or "multi_pass"; one unit is one element. reads: times each
    element crosses MTE2. passes: fp32 Vector operations per element (casts included).
    itemsize: bytes per element of self/out. vector: the UB-streaming struct.
    """

    strategy: str
    rows: int
    row_elems: int
    itemsize: int
    reads: int
    passes: int
    vector: VectorTilingData

    def unit_bytes(self) -> tuple[float, float, float]:
        """(MTE2 in, MTE3 out, VECTOR operand) bytes per element."""
        return self.reads * self.itemsize, self.itemsize, 4 * self.passes

    @property
    def gm_bytes(self) -> int:
        """Useful GM bytes: self read once, out written once."""
        return 2 * self.rows * self.row_elems * self.itemsize
