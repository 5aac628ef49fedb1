"""Pooling tiling, shared by every pooling op: a pure function of (chip, output size,
window reach, byte counts); no device.

Strategies, asked in priority order (:class:`~opsnn.base.tiling_base.TilingRegistry`,
one registry per op type from :func:`pool_registry`):

* ``row`` (priority 0, key 0): a unit is one output row of one plane, ``Wo``
  outputs, which reads ``rows_in`` input rows of ``cols_in(Wo)`` columns. Capable
  when that slot fits UB double-buffered.
* ``row_chunk`` (priority 1, key 1): a unit is a chunk of ``wc`` outputs of a row,
  ``wc`` the largest that fits. Capable when one output (``wc = 1``) fits.
* ``kernel_row_chunk`` (priority 2, key 2): a unit is a chunk of ``r`` kernel rows of
  one output, accumulated in UB. Always asked last; 561002 if even one kernel row
  does not fit.

One slot holds ``buffer_num * (r * cols_in(wc) * in_item + wc * out_bytes_per_out) +
wc * tmp_bytes_per_out`` bytes. The unit count and the exact traffic (every chunk of
every output row reads ``rows_in`` rows of its columns) go to
:func:`~opsnn.base.vector_tiling.vector_tiling`, spread evenly over the units.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from npu_sim import ChipConfig

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling_base import TilingRegistry, TilingResult, TilingStrategy, ceil_div
from ...base.vector_tiling import vector_tiling
from .tiling_data import STRATEGY_NAMES, PoolTilingData, PoolTilingKey


@dataclass(frozen=True)
class PoolTilingContext:
    """Inputs of pooling tiling.

    name: kernel label ("MaxPool", "AvgPool2d", ...). planes, ho, wo: planes and output
    size. rows_in: input rows one output row reads. cols_in(wc): input columns ``wc``
    adjacent outputs read. in_item: bytes per input element. out_bytes_per_out: bytes
    written per output (value, plus index for MaxPool2dWithIndices). tmp_bytes_per_out:
    UB scratch per output (accumulator / running index). vec_bytes: operand bytes the
    whole kernel streams through the Vector unit. buffer_num: queue depth.
    """

    chip: ChipConfig
    name: str
    planes: int
    ho: int
    wo: int
    rows_in: int
    cols_in: Callable[[int], int]
    in_item: int
    out_bytes_per_out: int
    tmp_bytes_per_out: int
    vec_bytes: float
    buffer_num: int = 2

    def slot(self, r: int, wc: int) -> int:
        """UB bytes of one unit of ``r`` kernel rows and ``wc`` outputs, all queue slots."""
        return (self.buffer_num * (r * self.cols_in(wc) * self.in_item + wc * self.out_bytes_per_out)
                + wc * self.tmp_bytes_per_out)

    def fits(self, r: int, wc: int) -> bool:
        return self.slot(r, wc) <= self.chip.ub_bytes


def _largest(lo: int, hi: int, fits: Callable[[int], bool]) -> int:
    """Largest v in [lo, hi] with fits(v) (fits is monotone decreasing); lo-1 if none."""
    if not fits(lo):
        return lo - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def _result(ctx: PoolTilingContext, key: PoolTilingKey, r: int, wc: int) -> TilingResult:
    n_wc, n_rc = ceil_div(ctx.wo, wc), ceil_div(ctx.rows_in, r)
    units = ctx.planes * ctx.ho * n_wc * n_rc
    row_cols = (n_wc - 1) * ctx.cols_in(wc) + ctx.cols_in(ctx.wo - (n_wc - 1) * wc)
    in_total = ctx.planes * ctx.ho * ctx.rows_in * row_cols * ctx.in_item
    out_total = ctx.planes * ctx.ho * ctx.wo * ctx.out_bytes_per_out
    vt = vector_tiling(ctx.chip, ctx.name, units, in_total / units, out_total / units,
                       tmp_bytes_per_unit=wc * ctx.tmp_bytes_per_out, buffer_num=ctx.buffer_num)
    td = PoolTilingData(STRATEGY_NAMES[key], ctx.planes, ctx.ho, ctx.wo, ctx.rows_in, wc, r, units, in_total,
                        out_total, ctx.vec_bytes, vt)
    return TilingResult(td.strategy, int(key), vt.block_dim, 0, td)


class Row(TilingStrategy[PoolTilingContext]):
    """A whole output row per unit, when its input rows fit UB double-buffered."""

    name = "row"

    def is_capable(self, ctx: PoolTilingContext) -> bool:
        return ctx.fits(ctx.rows_in, ctx.wo)

    def why_not(self, ctx: PoolTilingContext) -> str:
        return (f"one output row needs {ctx.slot(ctx.rows_in, ctx.wo)} B of UB, "
                f"{ctx.chip.name} has {ctx.chip.ub_bytes} B")

    def do_tiling(self, ctx: PoolTilingContext) -> TilingResult:
        return _result(ctx, PoolTilingKey.ROW, ctx.rows_in, ctx.wo)


class RowChunk(TilingStrategy[PoolTilingContext]):
    """The largest chunk of an output row that fits, when one output fits."""

    name = "row_chunk"

    def is_capable(self, ctx: PoolTilingContext) -> bool:
        return ctx.fits(ctx.rows_in, 1)

    def why_not(self, ctx: PoolTilingContext) -> str:
        return f"one output needs {ctx.slot(ctx.rows_in, 1)} B of UB, {ctx.chip.name} has {ctx.chip.ub_bytes} B"

    def do_tiling(self, ctx: PoolTilingContext) -> TilingResult:
        wc = _largest(1, ctx.wo, lambda v: ctx.fits(ctx.rows_in, v))
        return _result(ctx, PoolTilingKey.ROW_CHUNK, ctx.rows_in, wc)


class KernelRowChunk(TilingStrategy[PoolTilingContext]):
    """Chunks of the kernel rows of one output; 561002 if one kernel row does not fit."""

    name = "kernel_row_chunk"

    def is_capable(self, ctx: PoolTilingContext) -> bool:
        return True

    def do_tiling(self, ctx: PoolTilingContext) -> TilingResult:
        r = _largest(1, ctx.rows_in, lambda v: ctx.fits(v, 1))
        if r < 1:
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                             f"{ctx.name}: one kernel row of {ctx.cols_in(1)} input elements needs {ctx.slot(1, 1)} B "
                             f"of UB but {ctx.chip.name} has {ctx.chip.ub_bytes} B")
        return _result(ctx, PoolTilingKey.KERNEL_ROW_CHUNK, r, 1)


def pool_registry(op_type: str) -> TilingRegistry[PoolTilingContext]:
    """A registry for ``op_type`` holding the three pooling strategies (priorities 0, 1, 2)."""
    reg: TilingRegistry[PoolTilingContext] = TilingRegistry(op_type)
    for priority, cls in enumerate((Row, RowChunk, KernelRowChunk)):
        reg.register(priority)(cls)
    return reg
