"""LpPool tiling: a pure function of (chip, pass geometries, itemsize); no device.

Each pass is tiled with the family's 2-D strategies (:mod:`..common.tiling`). Vector
work per tap of the first pass: |x|^p as abs, ln, multiply by p and exp, then the add
(5 fp32 operations, 4 B each); per output of the last pass the root (ln, multiply by
1/p, exp: 3 operations). A 3-D pool's second pass adds the partial sums (one add per
tap) before the root; its input is pass 1's fp32 sums in the workspace.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.geometry import Pool2dGeom
from ..common.separable import pass_tiling
from ..common.tiling import pool_registry

REGISTRY = pool_registry("LpPool")


def lp_pool_tiling(chip: ChipConfig, geoms: list[Pool2dGeom], itemsize: int) -> tuple[TilingResult, list]:
    """(overall result, per-pass results). The overall :class:`TilingResult` has
    strategy "single" or "separable", workspace = pass 1's fp32 sums when there are
    two passes, key = the first pass's key (* 3 + the second's). Raises
    AclnnError(561002) if one kernel row of a pass does not fit UB."""
    res = []
    for i, g in enumerate(geoms):
        first, last = i == 0, i == len(geoms) - 1
        taps = g.planes * g.ho * g.wo * g.kh * g.kw
        outs = g.planes * g.ho * g.wo
        vec = taps * 4 * (5 if first else 1) + (outs * 12 if last else 0)
        res.append(pass_tiling(chip, REGISTRY, "LpPool", g, itemsize if first else 4, itemsize if last else 4, 4,
                               vec))
    g0 = geoms[0]
    ws = g0.planes * g0.ho * g0.wo * 4 if len(geoms) > 1 else 0
    key = res[0].tiling_key if len(res) == 1 else res[0].tiling_key * 3 + res[1].tiling_key
    strategy = "single" if len(res) == 1 else "separable"
    return TilingResult(strategy, key, max(r.block_dim for r in res), ws, tuple(r.data for r in res),
                        (strategy,)), res
