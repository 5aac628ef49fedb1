"""Row-norm tiling struct and keys (LayerNorm, RmsNorm): the one definition the host
half (``tiling.py``) and the kernel half (``kernel.py``) both read.

A row normalisation sees its input as a [rows, d] matrix (the normalised axes are
trailing, so each row is contiguous). Per-unit byte counts are methods here because
both halves need them: tiling sizes UB from them, the kernel states them per stage.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from ...base.tiling_base import align_up
from ...base.vector_tiling import VectorTilingData

#: UB bytes for per-row scalars (sum, mean, rstd as fp32 blocks)
ROW_SCALAR_UB_BYTES = 64
#: workspace bytes per row in the multi-pass strategy: fp32 mean and rstd
STATS_BYTES_PER_ROW = 8


class RowNormTilingKey(IntEnum):
    """Tiling keys of the row-norm kernels: one fused kernel, or stats + apply passes."""

    FUSED = 0
    MULTI_PASS = 1


@dataclass(frozen=True)
class RowNormTilingData:
    """How phase 1 tiled a row normalisation (LayerNorm / RmsNorm) of [rows, d].

    strategy: "fused" or "multi_pass". rows: rows normalised. row_elems: d, elements
    per row. chunk_elems / chunks_per_row: the chunking of a row (fused: d and 1).
    ub_bytes_needed_fused: UB one block needs to run the fused kernel (bytes).
    workspace_bytes: device workspace the kernels need (bytes; multi-pass: the fp32
    (mean, rstd) pair of every row, ``rows * 8`` rounded up to 32 B; fused: 0).
    itemsize / weight_itemsize: bytes per element of the input and of weight/bias
    (0 if none). n_affine: how many of weight/bias are given (0-2).
    stats_out_bytes_per_row: bytes of mean/rstd outputs written per row.
    centre: subtract the mean (LayerNorm) or not (RmsNorm).
    vector: the UB-streaming struct of each kernel, in launch order (fused: one;
    multi_pass: stats, apply).
    """

    strategy: str
    rows: int
    row_elems: int
    chunk_elems: int
    chunks_per_row: int
    ub_bytes_needed_fused: int
    workspace_bytes: int
    itemsize: int
    weight_itemsize: int
    n_affine: int
    stats_out_bytes_per_row: int
    centre: bool
    vector: tuple[VectorTilingData, ...]

    def info(self) -> dict:
        """The plan as phase 1 reports it in ``executor.info`` (these keys, this order)."""
        return {"strategy": self.strategy, "rows": self.rows, "row_elems": self.row_elems,
                "chunk_elems": self.chunk_elems, "chunks_per_row": self.chunks_per_row,
                "ub_bytes_needed_fused": self.ub_bytes_needed_fused, "workspace_bytes": self.workspace_bytes}

    def unit_bytes(self, kernel: str) -> tuple[float, float, float, float, int]:
        """Per work unit of ``kernel`` ("fused": a row; "stats" / "apply": an average
        chunk of ``d / chunks_per_row`` elements): (MTE2 in, MTE3 out, VECTOR operand
        bytes, UB scratch, fixed UB) bytes. See :func:`unit_bytes`."""
        return unit_bytes(kernel, self.row_elems, self.chunks_per_row, self.chunk_elems, self.itemsize,
                          self.n_affine, self.stats_out_bytes_per_row, self.centre)


def unit_bytes(kernel: str, d: int, cpr: int, c: int, item: int, n_affine: int, stats_out: int,
               centre: bool) -> tuple[float, float, float, float, int]:
    """(in, out, vector, scratch, fixed UB) bytes per unit of a row-norm ``kernel``.

    Vector work is fp32 operand bytes per pass over the unit's elements:
    fused: sum, x - mean, square, sum, * rstd (RmsNorm: square, sum, * rstd), one per
    weight/bias, and a cast in and out for 16-bit inputs. stats: the first half
    (LayerNorm 4, RmsNorm 2, + one cast); apply: * rstd (LayerNorm also x - mean),
    weight/bias, casts. Scratch: one fp32 work row (two for 16-bit inputs). Fixed:
    the per-row scalars, plus weight/bias resident as fp32 (fused: whole rows, each
    padded to 32 B; apply: one chunk each).
    """
    cast = 1 if item != 4 else 0
    tmp_per_elem = 4 * (1 + cast)
    if kernel == "fused":
        passes = (5 if centre else 3) + n_affine + 2 * cast
        return (d * item, d * item + stats_out, passes * d * 4, d * tmp_per_elem,
                ROW_SCALAR_UB_BYTES + n_affine * align_up(4 * d, 32))
    avg = d / cpr
    if kernel == "stats":
        passes = (4 if centre else 2) + cast
        return (avg * item, (STATS_BYTES_PER_ROW + stats_out) / cpr, passes * avg * 4, c * tmp_per_elem,
                ROW_SCALAR_UB_BYTES)
    passes = (2 if centre else 1) + n_affine + 2 * cast
    return (avg * item + STATS_BYTES_PER_ROW, avg * item, passes * avg * 4, c * tmp_per_elem,
            ROW_SCALAR_UB_BYTES + n_affine * 4 * c)
