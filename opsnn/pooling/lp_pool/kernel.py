"""LpPool kernel half: the passes' tile programs (the family's
:func:`~opsnn.pooling.common.kernel.tile_program`) and numpy bodies.

Formula (ONNX LpPool): out = (sum over each window's in-bounds taps of |x|^p)^(1/p);
padding adds 0. fp32 throughout; a 3-D pool's first pass writes the fp32 sums over
(H, W) of each depth slice to the workspace and the second sums over D and takes
the root.
"""
from __future__ import annotations

import numpy as np

from ...base.memview import tensor_view, write_out
from ..common.compute import avg_pool_compute
from ..common.geometry import Pool2dGeom
from ..common.kernel import tile_program
from ..common.separable import ws_arrays


def tile_programs(results, args: dict) -> list:
    """One AIV spec (label "LpPool") per pass (``args["pass"]`` its index)."""
    return [tile_program("LpPool", r.data, dict(args, **{"pass": i}), r.tiling_key) for i, r in enumerate(results)]


def _sum(x: np.ndarray, g: Pool2dGeom) -> np.ndarray:
    return avg_pool_compute(x.reshape(g.planes, g.h, g.w), g, True, 1)   # divisor 1: the window sums


def lp_pool_bodies(x_t, out_t, geoms: list[Pool2dGeom], p: float) -> list:
    """Body factories, one per pass. Slots: self, out."""
    def root(s):
        return np.power(s, np.float32(1.0 / p))

    def powered(x):
        return np.power(np.abs(x.astype(np.float32)), np.float32(p))

    if len(geoms) == 1:
        def only(addrs, ws):
            def body(mem):
                x = tensor_view(mem, addrs[0], x_t)
                write_out(mem, addrs[1], out_t, root(_sum(powered(x), geoms[0])).reshape(out_t.view_shape))
            return body
        return [only]
    g1, g2 = geoms

    def first(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            ws_arrays(mem, ws, g1, np.float32, False)[0][...] = _sum(powered(x), g1)
        return body

    def second(addrs, ws):
        def body(mem):
            v = ws_arrays(mem, ws, g1, np.float32, False)[0]
            write_out(mem, addrs[1], out_t, root(_sum(v, g2)).reshape(out_t.view_shape))
        return body
    return [first, second]
