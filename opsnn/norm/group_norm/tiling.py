"""GroupNorm tiling: a pure function of (chip, N, C, HxW, group, itemsize); no device.

Seen as rows: ``rows = N * group`` rows of ``d = (C / group) * HxW`` elements, each
normalised over itself (LayerNorm's centred statistics), then scaled by gamma[c] and
shifted by beta[c] per channel. The row-norm strategies of ``opsnn/norm/common``
apply with two affine vectors: ``fused`` (priority 0, key 0) when a row, its fp32 work
row(s) and the per-row gamma/beta expanded over HxW (fp32, resident) fit UB; else
``multi_pass`` (priority 1, key 1) with the statistics in ``rows * 8`` B of workspace.
meanOut and rstdOut are written per row in self's dtype. gamma/beta's own GM loads
(2 * C values per block, under 1 / HxW of the traffic) are not charged [A].
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingRegistry, TilingResult
from ..common.tiling import FusedRowNorm, MultiPassRowNorm, RowNormTilingContext

REGISTRY: TilingRegistry[RowNormTilingContext] = TilingRegistry("GroupNorm")
REGISTRY.register(priority=0)(FusedRowNorm)
REGISTRY.register(priority=1)(MultiPassRowNorm)


def group_norm_tiling(chip: ChipConfig, n: int, c: int, hxw: int, group: int, itemsize: int,
                      strategy: str | None = None) -> TilingResult:
    """Tile a GroupNorm of [N, C, HxW] in ``group`` groups (``itemsize`` bytes per
    element) on ``chip``: the first capable strategy, or ``strategy`` forced. Returns a
    :class:`TilingResult` whose ``data`` is a row-norm tiling struct. Raises AclnnError
    161002 for an unknown strategy, 561002 if a forced "fused" does not fit."""
    rows, d = n * group, (c // group) * hxw
    # mean and rstd out: one value each per row, in self's dtype; weight bytes 0 (module doc)
    ctx = RowNormTilingContext(chip, "GroupNorm", rows, d, itemsize, 0, 2, 2 * itemsize, True)
    return REGISTRY.run(ctx, strategy)
