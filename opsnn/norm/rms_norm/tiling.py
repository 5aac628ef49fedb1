"""RmsNorm tiling: a pure function of (chip, [rows, d], itemsizes); no device.

The row-norm strategies (``opsnn/norm/common/tiling.py``) with gamma as the one
resident affine vector and an fp32 rstdOut (4 B a row): ``fused`` (priority 0, key 0)
when a row, its fp32 work row(s) and gamma fit UB; else ``multi_pass`` (priority 1,
key 1), with a workspace of ``rows * 8`` B (rounded to 32 B). Vector passes per
element, fused: square, sum, * rstd, * gamma (+ casts for 16-bit); the two multi-pass
kernels split them (stats 2, apply 1 + gamma).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingRegistry, TilingResult
from ..common.tiling import FusedRowNorm, MultiPassRowNorm, RowNormTilingContext

REGISTRY: TilingRegistry[RowNormTilingContext] = TilingRegistry("RmsNorm")
REGISTRY.register(priority=0)(FusedRowNorm)
REGISTRY.register(priority=1)(MultiPassRowNorm)

#: bytes of rstdOut per row: one fp32, whatever x's dtype (CANN doc)
RSTD_OUT_BYTES_PER_ROW = 4


def rms_norm_tiling(chip: ChipConfig, rows: int, d: int, itemsize: int, gamma_itemsize: int,
                    strategy: str | None = None) -> TilingResult:
    """Tile an RmsNorm of ``rows`` rows of ``d`` elements (``itemsize`` bytes; gamma of
    ``gamma_itemsize``) on ``chip``: the first capable strategy, or ``strategy``
    forced. Returns a :class:`TilingResult` whose ``data`` is a
    :class:`~opsnn.norm.common.tiling_data.RowNormTilingData`. Raises AclnnError
    161002 for an unknown strategy, 561002 if forced "fused" does not fit."""
    ctx = RowNormTilingContext(chip, "RmsNorm", rows, d, itemsize, gamma_itemsize, 1, RSTD_OUT_BYTES_PER_ROW, False)
    return REGISTRY.run(ctx, strategy)
