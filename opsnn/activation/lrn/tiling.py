"""LRN tiling: a pure function of (chip, N, C, spatial size, window, itemsize); no device.

A unit walks channels at one spatial position (a column of C elements, strided by
``spatial`` in GM). Strategies, asked in priority order:

* ``channel_column`` (priority 0, key 0): a unit is a whole column. Capable when a
  column's in + out (double-buffered) and its fp32 scratch fit UB.
* ``channel_chunk`` (priority 1, key 1): a unit is a chunk of ``cc`` channels plus the
  ``size - 1`` halo channels the window needs, ``cc`` the most that fit UB. Always
  asked last; 561002 if even one channel and its halo do not fit.

Tiny chip example (16 KiB UB): 1200 fp32 channels need 2 x 9600 + 9600 B, so a column
is cut into chunks.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_sim import ChipConfig

from ...base.status import ACLNN_ERR_INNER_TILING_ERROR, AclnnError
from ...base.tiling_base import TilingRegistry, TilingResult, TilingStrategy, ceil_div
from ...base.vector_tiling import vector_tiling
from .tiling_data import LrnTilingData, LrnTilingKey, scratch_bytes_per_channel

#: queue depth of the LRN kernel (double buffering)
BUFFER_NUM = 2


@dataclass(frozen=True)
class LrnTilingContext:
    """Inputs of LRN tiling: chip, N, C, spatial size, window ``size``, itemsize (bytes)."""

    chip: ChipConfig
    n: int
    c: int
    spatial: int
    size: int
    itemsize: int

    def slot_bytes(self, cc: int, halo: int) -> int:
        """UB of a unit of ``cc`` channels reading ``halo`` more (bytes): in + out
        double-buffered and the fp32 scratch."""
        return BUFFER_NUM * ((cc + halo) * self.itemsize + cc * self.itemsize) + cc * scratch_bytes_per_channel(
            self.itemsize)


REGISTRY: TilingRegistry[LrnTilingContext] = TilingRegistry("Lrn")


def _result(ctx: LrnTilingContext, strategy: str, key: LrnTilingKey, cc: int) -> TilingResult:
    n_cc = ceil_div(ctx.c, cc)
    td = LrnTilingData(strategy, ctx.n, ctx.c, ctx.spatial, ctx.size, ctx.itemsize, cc, n_cc, None)
    i, o, _, tmp = td.unit_bytes()
    vt = vector_tiling(ctx.chip, "Lrn", td.units, i, o, tmp_bytes_per_unit=tmp, buffer_num=BUFFER_NUM)
    td = LrnTilingData(strategy, ctx.n, ctx.c, ctx.spatial, ctx.size, ctx.itemsize, cc, n_cc, vt)
    return TilingResult(strategy, int(key), vt.block_dim, 0, td)


@REGISTRY.register(priority=0)
class ChannelColumn(TilingStrategy[LrnTilingContext]):
    """A whole channel column per unit."""

    name = "channel_column"

    def is_capable(self, ctx: LrnTilingContext) -> bool:
        return ctx.slot_bytes(ctx.c, 0) <= ctx.chip.ub_bytes

    def why_not(self, ctx: LrnTilingContext) -> str:
        return f"a column of {ctx.c} channels needs {ctx.slot_bytes(ctx.c, 0)} B of UB"

    def do_tiling(self, ctx: LrnTilingContext) -> TilingResult:
        return _result(ctx, "channel_column", LrnTilingKey.CHANNEL_COLUMN, ctx.c)


@REGISTRY.register(priority=1)
class ChannelChunk(TilingStrategy[LrnTilingContext]):
    """Chunks of a column plus their window halo, the largest that fit UB."""

    name = "channel_chunk"

    def is_capable(self, ctx: LrnTilingContext) -> bool:
        return True

    def do_tiling(self, ctx: LrnTilingContext) -> TilingResult:
        chip, item = ctx.chip, ctx.itemsize
        per = BUFFER_NUM * 2 * item + scratch_bytes_per_channel(item)
        cc = min((chip.ub_bytes - BUFFER_NUM * (ctx.size - 1) * item) // per, ctx.c)
        if cc < 1:
            raise AclnnError(ACLNN_ERR_INNER_TILING_ERROR,
                             f"Lrn: a window of size {ctx.size} needs {ctx.slot_bytes(1, ctx.size - 1)} B of UB but "
                             f"{chip.name} has {chip.ub_bytes} B")
        return _result(ctx, "channel_chunk", LrnTilingKey.CHANNEL_CHUNK, cc)


def lrn_tiling(chip: ChipConfig, n: int, c: int, spatial: int, size: int, itemsize: int) -> TilingResult:
    """Tile an LRN of self [n, c, spatial...] with window ``size`` and ``itemsize``-byte
    elements on ``chip``: the first capable strategy. Returns a :class:`TilingResult`
    whose ``data`` is an :class:`LrnTilingData`; workspace 0. Raises AclnnError(561002)
    if one channel and its halo do not fit UB."""
    return REGISTRY.run(LrnTilingContext(chip, n, c, spatial, size, itemsize))
