"""LayerNorm tiling: a pure function of (chip, [rows, d], itemsizes, affine and
statistics outputs); no device.

Strategies (``opsnn/norm/common/tiling.py``), asked in priority order: ``fused``
(priority 0, key 0) when a row, its fp32 work row(s) and weight/bias fit UB;
``multi_pass`` (priority 1, key 1) otherwise, with a workspace of ``rows * 8`` B
(rounded to 32 B) for the per-row fp32 (mean, rstd). Vector passes per element, fused:
sum, x - mean, square, sum, * rstd, (* weight), (+ bias) (+ cast in/out for 16-bit);
the two multi-pass kernels split them (stats 4, apply 2 + affine).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingRegistry, TilingResult
from ..common.tiling import FusedRowNorm, MultiPassRowNorm, RowNormTilingContext

REGISTRY: TilingRegistry[RowNormTilingContext] = TilingRegistry("LayerNorm")
REGISTRY.register(priority=0)(FusedRowNorm)
REGISTRY.register(priority=1)(MultiPassRowNorm)


def layer_norm_tiling(chip: ChipConfig, rows: int, d: int, itemsize: int, weight_itemsize: int = 0,
                      n_affine: int = 0, n_stats: int = 0, strategy: str | None = None) -> TilingResult:
    """Tile a LayerNorm of ``rows`` rows of ``d`` elements of ``itemsize`` bytes on
    ``chip``. ``n_affine``: weight/bias given (0-2), of ``weight_itemsize`` bytes;
    ``n_stats``: meanOut/rstdOut given (0-2, each of the input's itemsize). The first
    capable strategy, or ``strategy`` forced. Returns a :class:`TilingResult` whose
    ``data`` is a :class:`~opsnn.norm.common.tiling_data.RowNormTilingData`. Raises
    AclnnError 161002 for an unknown strategy, 561002 if forced "fused" does not fit."""
    ctx = RowNormTilingContext(chip, "LayerNorm", rows, d, itemsize, weight_itemsize if n_affine else 0, n_affine,
                               n_stats * itemsize, True)
    return REGISTRY.run(ctx, strategy)
