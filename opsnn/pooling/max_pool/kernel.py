"""MaxPool / MaxPool2dWithIndices kernel half: the numpy body (the tile program is the
family's, :func:`opsnn.pooling.common.kernel.tile_program`).

Formula: out = max over each window's in-bounds taps (padding is -inf); indices =
the flat ``h * W + w`` of the first maximum in kernel row-major order within the
plane (torch's convention).
"""
from __future__ import annotations

import numpy as np

from ...base.memview import tensor_view, write_out
from ..common.geometry import Pool2dGeom
from ..common.kernel import compute_dtype, padded, planes, window_slices


def max_pool_compute(x: np.ndarray, g: Pool2dGeom, with_indices: bool):
    """Max over each window (padding is -inf) and, optionally, torch's index: the
    flat ``h * W + w`` of the first maximum in kernel row-major order within the
    plane; a NaN wins over any number (torch propagates NaN). A window with no
    value above -inf reports its first non-negative tap, as torch does (with a dilated
    kernel a window may lie wholly in the padding: -inf there)."""
    ct = compute_dtype(x.dtype)
    xp = padded(planes(x, g).astype(ct, copy=False), g, -np.inf)
    best = np.full((g.planes, g.ho, g.wo), -np.inf, ct)
    idx = None
    if with_indices:
        oh = np.arange(g.ho, dtype=np.int64) * g.sh - g.pt
        ow = np.arange(g.wo, dtype=np.int64) * g.sw - g.pl
        # first non-negative dilated tap of each window (torch: while (hstart < 0) hstart += dilation)
        h0 = np.where(oh < 0, oh % g.dh, oh)
        w0 = np.where(ow < 0, ow % g.dw, ow)
        idx = np.broadcast_to(h0[:, None] * g.w + w0[None, :], best.shape).copy()
    for i, j, rs, cs in window_slices(g):
        v = xp[:, rs, cs]
        if idx is None:
            np.maximum(best, v, out=best)  # propagates NaN
        else:
            m = (v > best) | np.isnan(v)
            np.copyto(best, v, where=m)
            tap = (oh[:, None] + i * g.dh) * g.w + (ow[None, :] + j * g.dw)
            np.copyto(idx, np.broadcast_to(tap, idx.shape), where=m)
    return best, idx


def max_pool_body(x_t, out_t, idx_t, g: Pool2dGeom):
    """Body factory. Slots: self, out[, indices] (``idx_t`` None: values only)."""
    def make(addrs, ws):
        def body(mem):
            x = tensor_view(mem, addrs[0], x_t)
            val, idx = max_pool_compute(x, g, idx_t is not None)
            write_out(mem, addrs[1], out_t, val.reshape(out_t.view_shape))
            if idx_t is not None:
                write_out(mem, addrs[2], idx_t, idx.reshape(idx_t.view_shape))
        return body
    return make
