"""Softmax tiling: a pure function of (chip, rows, row length, itemsize); no device.

Strategies, asked in priority order (:class:`~opsnn.base.tiling_base.TilingRegistry`):

* ``one_pass`` (priority 0, key 0): a unit is one row (the ``d`` elements along
  ``dim``; a row of a non-last ``dim`` is gathered by a strided DMA). UB holds, per
  row, in + out double-buffered plus an fp32 work row (two for fp16/bf16: the cast
  input and exp). Capable when that fits UB.
* ``multi_pass`` (priority 1, key 1): a unit is one chunk of ``c`` elements of a row
  (every row has ``chunks_per_row`` equal chunks, ``c`` a multiple of 32 B). Each
  chunk is read three times -- pass 1 row max, pass 2 sum of exp(x - max), pass 3
  normalise and write -- and the UB budget counts all three reads' slots, a
  conservative bound. Blocks take contiguous ranges of chunks; a row that straddles
  two blocks is timed as if each block streamed its own part (the cross-core combine
  through GM is not modelled). Always capable.

Tiny chip example: a 1000-float row needs 2 x (4000 + 4000) + 4000 B > 16 KiB of UB,
so it goes multi-pass.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_sim import ChipConfig

from ...base.tiling_base import TilingRegistry, TilingResult, TilingStrategy, align_up, ceil_div
from ...base.vector_tiling import vector_tiling
from .tiling_data import FIXED_UB_BYTES, SoftmaxTilingData, SoftmaxTilingKey, unit_bytes


@dataclass(frozen=True)
class SoftmaxTilingContext:
    """Inputs of Softmax tiling: chip, rows, row length ``d`` and itemsize (bytes)."""

    chip: ChipConfig
    rows: int
    d: int
    itemsize: int


REGISTRY: TilingRegistry[SoftmaxTilingContext] = TilingRegistry("Softmax")


def _result(ctx: SoftmaxTilingContext, strategy: str, key: SoftmaxTilingKey, c: int, cpr: int) -> TilingResult:
    units = ctx.rows * cpr
    i, o, _, tmp = unit_bytes(strategy, ctx.d, cpr, c, ctx.itemsize)
    vt = vector_tiling(ctx.chip, "Softmax", units, i, o, tmp_bytes_per_unit=tmp, fixed_ub_bytes=FIXED_UB_BYTES)
    td = SoftmaxTilingData(strategy, ctx.rows, ctx.d, ctx.itemsize, c, cpr, vt)
    return TilingResult(strategy, int(key), vt.block_dim, 0, td)


@REGISTRY.register(priority=0)
class OnePass(TilingStrategy[SoftmaxTilingContext]):
    """One row per unit, when a row's in + out (double-buffered) and work rows fit UB."""

    name = "one_pass"

    def is_capable(self, ctx: SoftmaxTilingContext) -> bool:
        i, o, _, tmp = unit_bytes("one_pass", ctx.d, 1, ctx.d, ctx.itemsize)
        return 2 * (i + o) + tmp + FIXED_UB_BYTES <= ctx.chip.ub_bytes

    def why_not(self, ctx: SoftmaxTilingContext) -> str:
        return f"a row of {ctx.d} elements does not fit {ctx.chip.name}'s {ctx.chip.ub_bytes} B of UB"

    def do_tiling(self, ctx: SoftmaxTilingContext) -> TilingResult:
        return _result(ctx, "one_pass", SoftmaxTilingKey.ONE_PASS, ctx.d, 1)


@REGISTRY.register(priority=1)
class MultiPass(TilingStrategy[SoftmaxTilingContext]):
    """Rows cut into equal chunks (a multiple of 32 B) that fit UB three reads deep."""

    name = "multi_pass"

    def is_capable(self, ctx: SoftmaxTilingContext) -> bool:
        return True

    def do_tiling(self, ctx: SoftmaxTilingContext) -> TilingResult:
        item = ctx.itemsize
        tmp_per_elem = 4 if item == 4 else 8
        align = max(1, 32 // item)
        c_max = (ctx.chip.ub_bytes - FIXED_UB_BYTES) // (2 * (3 * item + item) + tmp_per_elem) // align * align
        if c_max < 1:  # pragma: no cover - a chip with under ~1 KiB of UB
            c_max = align
        cpr = ceil_div(ctx.d, c_max)
        c = min(align_up(ceil_div(ctx.d, cpr), align), c_max)
        return _result(ctx, "multi_pass", SoftmaxTilingKey.MULTI_PASS, c, cpr)


def softmax_tiling(chip: ChipConfig, rows: int, d: int, itemsize: int, strategy: str | None = None) -> TilingResult:
    """Tile a softmax of ``rows`` rows of ``d`` elements of ``itemsize`` bytes on
    ``chip``: the first capable strategy (or ``strategy`` forced). Returns a
    :class:`TilingResult` whose ``data`` is a :class:`SoftmaxTilingData`; workspace 0.
    Raises AclnnError(561002) if no strategy fits."""
    return REGISTRY.run(SoftmaxTilingContext(chip, rows, d, itemsize), strategy)
