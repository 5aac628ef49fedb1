"""Row-norm tiling (LayerNorm, RmsNorm): a pure function of (chip, [rows, d], dtypes,
affine and statistics outputs); no device.

Two :class:`~opsnn.base.tiling_base.TilingStrategy` classes; each op registers both in
its own :class:`~opsnn.base.tiling_base.TilingRegistry` (``layer_norm/tiling.py``,
``rms_norm/tiling.py``), so errors name the op:

* :class:`FusedRowNorm` (priority 0, key 0): one kernel; a unit is one row. UB holds,
  double-buffered, the row in and the row out (+ the mean/rstd outputs), rows padded
  to whole 32 B blocks; an fp32 work row (two for fp16/bf16); the per-row scalars;
  and weight/bias resident as fp32 (loaded once per block, ``kernel.py``). Capable
  when that fits UB.
* :class:`MultiPassRowNorm` (priority 1, key 1): always capable. Rows are cut into
  ``chunks_per_row`` equal chunks of ``chunk_elems`` elements (a multiple of 32 B;
  the largest that fits UB, or smaller when there are fewer rows than vector cores,
  so the chunks fill the cores -- split-D -- but never under MIN_BLOCK_BYTES of
  input). Pass 1 (stats) streams each chunk once and writes per-row fp32 (mean, rstd)
  to the workspace; pass 2 (apply) streams each chunk again with the chunk's
  weight/bias resident as fp32. The UB budget is the apply pass's, which holds the
  most per element.

Tiny chip example (16 KiB UB): a 2000-float row with fp32 weight and bias needs about
56 KB for the fused kernel, so it goes multi-pass in chunks of 32 B multiples.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_sim import ChipConfig

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling_base import TilingRegistry, TilingResult, TilingStrategy, align_up, ceil_div
from ...base.vector_tiling import MIN_BLOCK_BYTES, vector_tiling
from .tiling_data import ROW_SCALAR_UB_BYTES, STATS_BYTES_PER_ROW, RowNormTilingData, RowNormTilingKey, unit_bytes


@dataclass(frozen=True)
class RowNormTilingContext:
    """Inputs of row-norm tiling.

    op_type: "LayerNorm" or "RmsNorm" (messages, kernel names). rows, d: the [rows, d]
    view. itemsize / weight_itemsize: bytes per element of input and weight/bias (0 if
    none). n_affine: weight/bias given (0-2). stats_out_bytes_per_row: bytes of
    mean/rstd outputs per row. centre: LayerNorm (True) or RmsNorm (False).
    """

    chip: ChipConfig
    op_type: str
    rows: int
    d: int
    itemsize: int
    weight_itemsize: int
    n_affine: int
    stats_out_bytes_per_row: int
    centre: bool

    def fused_ub_bytes(self) -> int:
        """UB one block of the fused kernel needs (bytes): in + out rows padded to 32 B
        (+ statistics) double-buffered, the fp32 work row(s), fixed scalars and the
        resident fp32 weight/bias."""
        item, d = self.itemsize, self.d
        tmp_per_elem = 4 * (1 + (1 if item != 4 else 0))
        d_ub = align_up(d, max(1, 32 // item))
        fixed = ROW_SCALAR_UB_BYTES + self.n_affine * align_up(4 * d, 32)
        return 2 * (2 * d_ub * item + self.stats_out_bytes_per_row) + d_ub * tmp_per_elem + fixed


def _data(ctx: RowNormTilingContext, strategy: str, c: int, cpr: int, ws: int, vector) -> RowNormTilingData:
    return RowNormTilingData(strategy, ctx.rows, ctx.d, c, cpr, ctx.fused_ub_bytes(), ws, ctx.itemsize,
                             ctx.weight_itemsize, ctx.n_affine, ctx.stats_out_bytes_per_row, ctx.centre, vector)


def _vector(ctx: RowNormTilingContext, kernel: str, c: int, cpr: int):
    """The UB-streaming struct of one row-norm kernel (units: rows, or row chunks)."""
    i, o, _, tmp, fixed = unit_bytes(kernel, ctx.d, cpr, c, ctx.itemsize, ctx.n_affine, ctx.stats_out_bytes_per_row,
                                     ctx.centre)
    return vector_tiling(ctx.chip, ctx.op_type, ctx.rows * cpr, i, o, tmp_bytes_per_unit=tmp, fixed_ub_bytes=fixed)


class FusedRowNorm(TilingStrategy[RowNormTilingContext]):
    """One kernel, one row per unit, when a row and its work rows fit UB."""

    name = "fused"

    def is_capable(self, ctx: RowNormTilingContext) -> bool:
        return ctx.fused_ub_bytes() <= ctx.chip.ub_bytes

    def why_not(self, ctx: RowNormTilingContext) -> str:
        # the sentence phase 1 has always reported (tests match it)
        return (f"aclnn{ctx.op_type}: fused strategy needs {ctx.fused_ub_bytes()} B of UB for a row of {ctx.d} "
                f"elements but {ctx.chip.name} has {ctx.chip.ub_bytes} B")

    def do_tiling(self, ctx: RowNormTilingContext) -> TilingResult:
        td = _data(ctx, "fused", ctx.d, 1, 0, (_vector(ctx, "fused", ctx.d, 1),))
        return TilingResult("fused", int(RowNormTilingKey.FUSED), td.vector[0].block_dim, 0, td)


class MultiPassRowNorm(TilingStrategy[RowNormTilingContext]):
    """Stats pass then apply pass over equal row chunks (a multiple of 32 B)."""

    name = "multi_pass"

    def is_capable(self, ctx: RowNormTilingContext) -> bool:
        return True

    def do_tiling(self, ctx: RowNormTilingContext) -> TilingResult:
        chip, item, d, rows = ctx.chip, ctx.itemsize, ctx.d, ctx.rows
        tmp_per_elem = 4 * (1 + (1 if item != 4 else 0))
        align = max(1, 32 // min(item, ctx.weight_itemsize or item))
        # the apply pass holds the most per element: x in and y out (double buffered),
        # the fp32 work row(s), the chunk's weight/bias resident as fp32 (+ the per-row
        # statistics each pass reads or writes, double buffered)
        per_elem = 2 * (item + item) + tmp_per_elem + 4 * ctx.n_affine
        reserve = ROW_SCALAR_UB_BYTES + 2 * (STATS_BYTES_PER_ROW + ctx.stats_out_bytes_per_row)
        c_max = (chip.ub_bytes - reserve) // per_elem // align * align
        if c_max < align:  # pragma: no cover - a chip with under ~1 KiB of UB
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"aclnn{ctx.op_type}: UB of {chip.ub_bytes} B is too small")
        # few rows: cut rows finer so the chunks fill the vector cores (split-D), but
        # keep each chunk at least MIN_BLOCK_BYTES of input
        c_target = c_max
        if rows < chip.vector_core_count:
            c_fill = align_up(ceil_div(d, ceil_div(chip.vector_core_count, rows)), align)
            c_target = min(c_max, max(c_fill, align_up(MIN_BLOCK_BYTES // item, align)))
        cpr = ceil_div(d, c_target)
        c = min(align_up(ceil_div(d, cpr), align), c_max)
        ws = align_up(rows * STATS_BYTES_PER_ROW, 32)
        td = _data(ctx, "multi_pass", c, cpr, ws, (_vector(ctx, "stats", c, cpr), _vector(ctx, "apply", c, cpr)))
        return TilingResult("multi_pass", int(RowNormTilingKey.MULTI_PASS), td.vector[0].block_dim, ws, td)

