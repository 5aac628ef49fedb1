"""AvgPool2d tiling: a pure function of (chip, geometry, itemsize).

The three pooling strategies of :mod:`opsnn.pooling.common.tiling`. A unit reads
``min(H, kh)`` input rows and, for ``wc`` outputs, ``min(W, (wc-1)*sw + kw)``
columns, and writes one value per output; UB holds an fp32 accumulator per output
(4 B). Vector work: one fp32 add per tap (4 B) and a divide per output (4 B; twice
for fp16/bf16, the casts).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.geometry import Pool2dGeom
from ..common.tiling import PoolTilingContext, pool_registry

REGISTRY = pool_registry("AvgPool2d")


def avg_pool_tiling(chip: ChipConfig, g: Pool2dGeom, itemsize: int, strategy: str | None = None) -> TilingResult:
    """Tile an AvgPool2d of geometry ``g`` (planes > 0, no dilation) with
    ``itemsize``-byte elements. Returns a :class:`TilingResult` whose ``data`` is a
    :class:`~opsnn.pooling.common.tiling_data.PoolTilingData`; workspace 0. Raises
    AclnnError(561002) if one kernel row does not fit UB."""
    outs = g.planes * g.ho * g.wo
    vec = outs * g.kh * g.kw * 4 + outs * 4 * (2 if itemsize < 4 else 1)  # fp32 adds, divide (+ casts)
    ctx = PoolTilingContext(chip, "AvgPool2d", g.planes, g.ho, g.wo, min(g.h, g.kh),
                            lambda wc: min(g.w, (wc - 1) * g.sw + g.kw), itemsize, itemsize, 4, vec)
    return REGISTRY.run(ctx, strategy)
