"""AdaptiveAvgPool2d tiling: a pure function of (chip, planes, input and output size,
itemsize).

Output cell (i, j) averages input rows floor(i*H/Ho) .. ceil((i+1)*H/Ho)-1 and the
matching columns (torch's adaptive windows), so windows vary in size: a unit reads
the tallest window's rows (``kh_max``) and, for ``wc`` outputs, ``min(W,
ceil(wc*W/Wo) + kw_max - 1)`` columns. The three pooling strategies of
:mod:`opsnn.pooling.common.tiling`; UB holds an fp32 accumulator per output. Vector
work: one fp32 add per tap and a divide per output (twice for fp16/bf16).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.geometry import adaptive_bounds
from ..common.tiling import PoolTilingContext, pool_registry

REGISTRY = pool_registry("AdaptiveAvgPool2d")


def adaptive_windows(h: int, w: int, ho: int, wo: int) -> tuple[int, int, int]:
    """(tallest window rows, widest window columns, taps of one plane)."""
    hs, he = adaptive_bounds(h, ho)
    ws, we = adaptive_bounds(w, wo)
    return int((he - hs).max()), int((we - ws).max()), int((he - hs).sum()) * int((we - ws).sum())


def adaptive_avg_pool_tiling(chip: ChipConfig, planes: int, h: int, w: int, ho: int, wo: int, itemsize: int,
                             strategy: str | None = None) -> TilingResult:
    """Tile an AdaptiveAvgPool2d of ``planes`` (> 0) planes of ``h x w`` into ``ho x
    wo`` with ``itemsize``-byte elements. Returns a :class:`TilingResult` whose
    ``data`` is a :class:`~opsnn.pooling.common.tiling_data.PoolTilingData`;
    workspace 0. Raises AclnnError(561002) if one kernel row does not fit UB."""
    kh_max, kw_max, plane_taps = adaptive_windows(h, w, ho, wo)
    taps = planes * plane_taps
    vec = taps * 4 + planes * ho * wo * 4 * (2 if itemsize < 4 else 1)
    ctx = PoolTilingContext(chip, "AdaptiveAvgPool2d", planes, ho, wo, kh_max,
                            lambda wc: min(w, -(-wc * w // wo) + kw_max - 1), itemsize, itemsize, 4, vec)
    return REGISTRY.run(ctx, strategy)
