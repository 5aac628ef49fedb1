"""3-D pooling kernel half: the two passes' tile programs (the family's
:func:`~opsnn.pooling.common.kernel.tile_program`) and their numpy bodies.

Pass 1 pools (H, W) of every depth slice into the workspace; pass 2 pools D of that
intermediate into ``out``. Max: pass 1 keeps, per slice, the first maximum and its
in-slice index ``h*W + w`` (int32); pass 2 keeps the first depth with the maximum, so
the index is ``d*H*W + h*W + w``: the first maximum in (d, h, w) order, CANN's and
torch's convention. Average: pass 1 writes fp32 partial means (sums when a
``divisorOverride`` is given), pass 2 divides by the depth window, so the divisor is
the product of the per-axis window lengths. Workspace layout:
:mod:`..common.separable`.
"""
from __future__ import annotations

import numpy as np

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ..common.compute import avg_pool_compute, max_pool_compute
from ..common.geometry import Pool2dGeom
from ..common.kernel import tile_program
from ..common.separable import ws_arrays
from .tiling_data import Pool3dTilingData


def tile_programs(name: str, td: Pool3dTilingData, args: dict, tiling_key: int) -> tuple[KernelSpec, KernelSpec]:
    """The two AIV specs (label ``name``; ``args["pass"]`` "hw" then "d")."""
    return (tile_program(name, td.pass_hw, dict(args, **{"pass": "hw"}), tiling_key),
            tile_program(name, td.pass_d, dict(args, **{"pass": "d"}), tiling_key))


def _first_taps(g: Pool2dGeom) -> np.ndarray:
    """Per output of a 2-D pass, ``h0*W + w0``: its first non-negative tap per axis."""
    oh = np.arange(g.ho, dtype=np.int64) * g.sh - g.pt
    ow = np.arange(g.wo, dtype=np.int64) * g.sw - g.pl
    h0 = np.where(oh < 0, oh % g.dh, oh)
    w0 = np.where(ow < 0, ow % g.dw, ow)
    return h0[:, None] * g.w + w0[None, :]


def max_pool3d_bodies(x_t, out_t, idx_t, g_hw: Pool2dGeom, g_d: Pool2dGeom):
    """Body factories of the two max passes. Slots: self, out, indices."""
    hw = g_hw.h * g_hw.w
    vdt = x_t.np_dtype

    def first(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            val, idx = max_pool_compute(x.reshape(g_hw.planes, g_hw.h, g_hw.w), g_hw, True)
            v, i = ws_arrays(mem, ws, g_hw, vdt, True)
            v[...] = val
            i[...] = idx
        return body

    def second(addrs, ws):
        def body(mem):
            v, i = ws_arrays(mem, ws, g_hw, vdt, True)
            val, idx2 = max_pool_compute(v.reshape(g_d.planes, g_d.h, g_d.w), g_d, True)
            d, col = idx2 // g_d.w, idx2 % g_d.w
            inner = i.reshape(g_d.planes, g_d.h, g_d.w)[np.arange(g_d.planes)[:, None, None],
                                                        np.minimum(d, g_d.h - 1), col]
            # a window with nothing above -inf (e.g. wholly in the padding) keeps torch's start index:
            # the first non-negative tap along each axis (d from pass 2 already is)
            empty = ~(val > -np.inf) & ~np.isnan(val)
            if empty.any():
                inner = np.where(empty, _first_taps(g_hw).reshape(1, 1, -1), inner)
            write_out(mem, addrs[1], out_t, val.reshape(out_t.view_shape))
            write_out(mem, addrs[2], idx_t, (d * hw + inner).reshape(idx_t.view_shape))
        return body
    return first, second


def avg_pool3d_bodies(x_t, out_t, g_hw: Pool2dGeom, g_d: Pool2dGeom, count_include_pad: bool,
                      divisor_override: int):
    """Body factories of the two average passes. Slots: self, out."""
    def first(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            r = avg_pool_compute(x.reshape(g_hw.planes, g_hw.h, g_hw.w), g_hw, count_include_pad,
                                 1 if divisor_override else 0)
            ws_arrays(mem, ws, g_hw, np.float32, False)[0][...] = r
        return body

    def second(addrs, ws):
        def body(mem):
            v = ws_arrays(mem, ws, g_hw, np.float32, False)[0]
            r = avg_pool_compute(v.reshape(g_d.planes, g_d.h, g_d.w), g_d, count_include_pad, divisor_override)
            write_out(mem, addrs[1], out_t, r.reshape(out_t.view_shape))
        return body
    return first, second
