"""AddRmsNorm tiling: a pure function of (chip, [rows, d], itemsizes); no device.

Two strategies in :data:`REGISTRY`:

* ``fused`` (priority 0, key 0): one kernel, a unit is a row; UB holds, double
  buffered, x1 and x2 rows in and the y and x rows out (rows padded to 32 B) plus
  rstd, the fp32 work row(s), the per-row scalars and gamma resident as fp32.
  Capable when that fits UB.
* ``multi_pass`` (priority 1, key 1): always capable. Rows are cut into equal chunks
  (a multiple of 32 B, the largest the apply pass fits in UB). The stats kernel
  streams x1 and x2 chunks, writes xOut and, per row, rstd (fp32) to rstdOut and the
  workspace; the apply kernel streams xOut back with gamma's chunk resident and writes
  yOut.
Bytes per unit: :func:`.tiling_data.unit_bytes`.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_sim import ChipConfig

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling_base import TilingRegistry, TilingResult, TilingStrategy, align_up, ceil_div
from ...base.vector_tiling import vector_tiling
from ..common.tiling_data import ROW_SCALAR_UB_BYTES
from .tiling_data import RSTD_BYTES, AddRmsNormTilingData, AddRmsNormTilingKey, unit_bytes


@dataclass(frozen=True)
class AddRmsNormTilingContext:
    """chip; rows, d: the [rows, d] view; itemsize / gamma_itemsize: bytes per element."""

    chip: ChipConfig
    rows: int
    d: int
    itemsize: int
    gamma_itemsize: int

    def fused_ub_bytes(self) -> int:
        """UB one block of the fused kernel needs (bytes)."""
        item = self.itemsize
        d_ub = align_up(self.d, max(1, 32 // item))
        _, _, _, tmp, fixed = unit_bytes("fused", d_ub, 1, d_ub, item)
        return 2 * (4 * d_ub * item + RSTD_BYTES) + tmp + fixed


def _vector(ctx, kernel, c, cpr):
    i, o, _, tmp, fixed = unit_bytes(kernel, ctx.d, cpr, c, ctx.itemsize)
    return vector_tiling(ctx.chip, "AddRmsNorm", ctx.rows * cpr, i, o, tmp_bytes_per_unit=tmp, fixed_ub_bytes=fixed)


REGISTRY: TilingRegistry[AddRmsNormTilingContext] = TilingRegistry("AddRmsNorm")


@REGISTRY.register(priority=0)
class FusedAddRmsNorm(TilingStrategy[AddRmsNormTilingContext]):
    """One kernel, one row per unit, when the rows and work rows fit UB."""

    name = "fused"

    def is_capable(self, ctx) -> bool:
        return ctx.fused_ub_bytes() <= ctx.chip.ub_bytes

    def why_not(self, ctx) -> str:
        return (f"aclnnAddRmsNorm: fused strategy needs {ctx.fused_ub_bytes()} B of UB for a row of {ctx.d} "
                f"elements but {ctx.chip.name} has {ctx.chip.ub_bytes} B")

    def do_tiling(self, ctx) -> TilingResult:
        td = AddRmsNormTilingData("fused", ctx.rows, ctx.d, ctx.d, 1, ctx.itemsize, ctx.gamma_itemsize, 0,
                                  (_vector(ctx, "fused", ctx.d, 1),))
        return TilingResult("fused", int(AddRmsNormTilingKey.FUSED), td.vector[0].block_dim, 0, td)


@REGISTRY.register(priority=1)
class MultiPassAddRmsNorm(TilingStrategy[AddRmsNormTilingContext]):
    """Stats kernel (x = x1 + x2, rstd) then apply kernel over equal row chunks."""

    name = "multi_pass"

    def is_capable(self, ctx) -> bool:
        return True

    def do_tiling(self, ctx) -> TilingResult:
        item, d = ctx.itemsize, ctx.d
        align = max(1, 32 // min(item, ctx.gamma_itemsize))
        tmp_per_elem = 4 * (1 + (1 if item != 4 else 0))
        # the stats pass holds the most per element: x1, x2 in and x out double buffered
        per_elem = 2 * 3 * item + tmp_per_elem + 4
        c_max = (ctx.chip.ub_bytes - ROW_SCALAR_UB_BYTES - 4 * RSTD_BYTES) // per_elem // align * align
        if c_max < align:  # pragma: no cover - a chip with under ~1 KiB of UB
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR, f"aclnnAddRmsNorm: UB of {ctx.chip.ub_bytes} B is too small")
        cpr = ceil_div(d, c_max)
        c = min(align_up(ceil_div(d, cpr), align), c_max)
        ws = align_up(ctx.rows * RSTD_BYTES, 32)
        td = AddRmsNormTilingData("multi_pass", ctx.rows, d, c, cpr, item, ctx.gamma_itemsize, ws,
                                  (_vector(ctx, "stats", c, cpr), _vector(ctx, "apply", c, cpr)))
        return TilingResult("multi_pass", int(AddRmsNormTilingKey.MULTI_PASS), td.vector[0].block_dim, ws, td)


def add_rms_norm_tiling(chip: ChipConfig, rows: int, d: int, itemsize: int, gamma_itemsize: int,
                        strategy: str | None = None) -> TilingResult:
    """Tile an AddRmsNorm of ``rows`` rows of ``d`` elements: the first capable strategy
    or ``strategy`` forced. Raises AclnnError 161002 for an unknown strategy, 561002 if
    forced "fused" does not fit."""
    return REGISTRY.run(AddRmsNormTilingContext(chip, rows, d, itemsize, gamma_itemsize), strategy)
