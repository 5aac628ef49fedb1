"""AddRmsNorm tiling struct and keys (host and kernel halves read them), and the bytes
per unit both halves need.

Per element (fp32 operand bytes per Vector pass) [A]: fused, Add, square, sum, * rstd,
* gamma (5) plus casts (two in, two out) for 16-bit inputs; stats pass: Add, square,
sum (3) + casts (two in, one out); apply pass: * rstd, * gamma (2) + casts (one in,
one out). Scratch: one fp32 work row (two for 16-bit inputs). Fixed: the per-row
scalars, plus gamma resident as fp32 (fused: the whole row; apply: one chunk).
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.tiling_base import align_up
from ...base.vector_tiling import VectorTilingData
from ..common.tiling_data import ROW_SCALAR_UB_BYTES

#: bytes of rstd per row: fp32 in rstdOut and in the multi-pass workspace (CANN doc: rstdOut is FLOAT)
RSTD_BYTES = 4


class AddRmsNormTilingKey(IntEnum):
    FUSED = 0
    MULTI_PASS = 1


@dataclass(frozen=True)
class AddRmsNormTilingData:
    """strategy: "fused" (one kernel, a unit is a row) or "multi_pass" (stats then apply
    kernels, a unit is a chunk of ``chunk_elems`` of a row cut into ``chunks_per_row``).
    rows, d: the [rows, d] view. itemsize / gamma_itemsize: bytes per element.
    workspace_bytes: multi-pass per-row rstd. vector: one struct per kernel."""

    strategy: str
    rows: int
    d: int
    chunk_elems: int
    chunks_per_row: int
    itemsize: int
    gamma_itemsize: int
    workspace_bytes: int
    vector: tuple[VectorTilingData, ...]

    def unit_bytes(self, kernel: str):
        """(in, out, vector, scratch, fixed UB) bytes per unit of ``kernel``."""
        return unit_bytes(kernel, self.d, self.chunks_per_row, self.chunk_elems, self.itemsize)

    def info(self) -> dict:
        return {"strategy": self.strategy, "row_elems": self.d, "chunk_elems": self.chunk_elems,
                "chunks_per_row": self.chunks_per_row}


def unit_bytes(kernel: str, d: int, cpr: int, c: int, item: int):
    """(MTE2 in, MTE3 out, VECTOR operand bytes, UB scratch, fixed UB) per unit
    ("fused": a row; "stats" / "apply": an average chunk of d / cpr elements)."""
    cast = 1 if item != 4 else 0
    tmp_per_elem = 4 * (1 + cast)
    if kernel == "fused":
        return (2 * d * item, 2 * d * item + RSTD_BYTES, (5 + 4 * cast) * d * 4, d * tmp_per_elem,
                ROW_SCALAR_UB_BYTES + align_up(4 * d, 32))
    avg = d / cpr
    if kernel == "stats":
        return (2 * avg * item, avg * item + 2 * RSTD_BYTES / cpr, (3 + 3 * cast) * avg * 4, c * tmp_per_elem,
                ROW_SCALAR_UB_BYTES)
    return (avg * item + RSTD_BYTES, avg * item, (2 + 2 * cast) * avg * 4, c * tmp_per_elem,
            ROW_SCALAR_UB_BYTES + 4 * c)
