"""The pooling numerics shared by the 2-D ops and the separable 3-D passes
(:mod:`opsnn.pooling.pool3d`): max with torch's argmax, and the average with torch's
divisor. Pure numpy over [planes, H, W] windows of a :class:`Pool2dGeom`.
"""
from __future__ import annotations

import numpy as np

from .geometry import Pool2dGeom
from .kernel import compute_dtype, padded, planes, window_slices


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


def avg_divisor(g: Pool2dGeom, count_include_pad: bool, divisor_override: int) -> np.ndarray:
    """torch's avg_pool2d divisor per output (ho, wo): the override if non-zero;
    else the window clipped to the padded extent (countIncludePad) or to the input."""
    if divisor_override:
        return np.full((g.ho, g.wo), float(divisor_override))

    def axis(n_out, s, k, pb, pe, size):
        start = np.arange(n_out, dtype=np.int64) * s - pb
        end = np.minimum(start + k, size + pe)
        full = end - start
        valid = np.minimum(end, size) - np.maximum(start, 0)
        return full, valid

    fh, vh = axis(g.ho, g.sh, g.kh, g.pt, g.pb, g.h)
    fw, vw = axis(g.wo, g.sw, g.kw, g.pl, g.pr, g.w)
    d = (fh[:, None] * fw[None, :]) if count_include_pad else (vh[:, None] * vw[None, :])
    return d.astype(np.float64)


def avg_pool_compute(x: np.ndarray, g: Pool2dGeom, count_include_pad: bool, divisor_override: int) -> np.ndarray:
    """The average of every window of ``x`` ([..., H, W]) as [planes, Ho, Wo]."""
    ct = compute_dtype(x.dtype)
    xp = padded(planes(x, g).astype(ct, copy=False), g, 0.0)
    acc = np.zeros((g.planes, g.ho, g.wo), ct)
    for _, _, rs, cs in window_slices(g):
        acc += xp[:, rs, cs]
    div = avg_divisor(g, count_include_pad, divisor_override).astype(ct)
    return acc / div
