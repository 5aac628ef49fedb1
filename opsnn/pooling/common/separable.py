"""Separable N-d pooling, shared by the 3-D ops (:mod:`..pool3d`) and LpPool
(:mod:`..lp_pool`): a (kd x kh x kw) window is a (kh x kw) window over every depth
slice, then a (kd x 1) window over depth, because a box's max and sum split over its
axes and the average's divisor is a product of per-axis lengths. Pure geometry and
tiling helpers (no status codes), plus the workspace views the two passes share.

Workspace layout: [int32 indices (argmax only)][intermediate values].
"""
from __future__ import annotations

import numpy as np

from ...base.tiling_base import TilingRegistry, TilingResult
from .geometry import Pool2dGeom, make_geom
from .tiling import PoolTilingContext


def triple(vals, default=None) -> tuple[int, int, int]:
    """An int array of 0 (``default``), 1 (all three) or 3 values as (D, H, W)."""
    vals = tuple(vals)
    if not vals:
        return tuple(default)
    return (vals[0],) * 3 if len(vals) == 1 else (vals[0], vals[1], vals[2])


def pads6(vals) -> tuple[int, int, int, int, int, int]:
    """(d_begin, h_begin, w_begin, d_end, h_end, w_end) from 1 value, 3 symmetric ones
    (CANN) or 6 in ONNX order (npu-sim's extension for asymmetric ONNX pads)."""
    vals = tuple(vals)
    if len(vals) == 6:
        return vals
    t = triple(vals, (0, 0, 0))
    return t + t


def passes(shape, k, s, d, p6, ceil_mode: bool) -> tuple[Pool2dGeom, Pool2dGeom]:
    """(pass over H, W of every depth slice; pass over D) for pooling ``shape``
    ([..., D, H, W]). The first sees planes = prod(leading) * D; the second pools
    [prod(leading), D, Ho*Wo] with a (kd, 1) window. Output sizes may be < 1."""
    lead = 1
    for v in shape[:-3]:
        lead *= v
    dd, hh, ww = shape[-3:]
    g_hw = make_geom((lead * dd, hh, ww), k[1:], s[1:], d[1:], (p6[1], p6[2], p6[4], p6[5]), ceil_mode)
    g_d = make_geom((lead, dd, max(g_hw.ho, 0) * max(g_hw.wo, 0)), (k[0], 1), (s[0], 1), (d[0], 1),
                    (p6[0], 0, p6[3], 0), ceil_mode)
    return g_hw, g_d


def pass_tiling(chip, registry: TilingRegistry, name: str, g: Pool2dGeom, in_item: int, out_item: int,
                tmp_bytes_per_out: int, vec_bytes: float) -> TilingResult:
    """One pass tiled with the family's 2-D strategies: units read ``min(H, dilated
    kh)`` rows and ``min(W, (wc-1)*sw + dilated kw)`` columns of ``in_item``-byte
    values and write ``out_item`` bytes per output."""
    ctx = PoolTilingContext(chip, name, g.planes, g.ho, g.wo, min(g.h, g.eff_kh),
                            lambda wc: min(g.w, (wc - 1) * g.sw + g.eff_kw), in_item, out_item,
                            tmp_bytes_per_out, vec_bytes)
    return registry.run(ctx, None)


def ws_arrays(mem, ws: int, g: Pool2dGeom, val_dtype, with_idx: bool):
    """(values, int32 indices or None) of pass 1's output ``g`` in the workspace."""
    n = g.planes * g.ho * g.wo
    idx = mem.array(ws, (g.planes, g.ho, g.wo), np.int32) if with_idx else None
    val = mem.array(ws + (4 * n if with_idx else 0), (g.planes, g.ho, g.wo), val_dtype)
    return val, idx
