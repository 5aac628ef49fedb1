"""float64 references for the pooling family, written naively (one window at a
time, explicit loops) and independently of :mod:`opsnn.pooling.kernel`.

Arguments follow the op defs; pads are always ``(top, left, bottom, right)``.
"""
from __future__ import annotations

import math

import numpy as np


def out_len(size: int, k: int, s: int, d: int, p0: int, p1: int, ceil_mode: bool) -> int:
    """torch/ONNX output length (ceil mode drops a window starting in the trailing pad)."""
    span = (size + p0 + p1 - d * (k - 1) - 1) / s
    n = (math.ceil(span) if ceil_mode else math.floor(span)) + 1
    if ceil_mode and (n - 1) * s >= size + p0:
        n -= 1
    return n


def _planes(x):
    x = np.asarray(x, dtype=np.float64)
    return x.reshape((-1,) + x.shape[-2:]), x.shape[:-2]


def max_pool2d_golden(x, kernel, stride, pads, dilation=(1, 1), ceil_mode=False):
    """(values, indices): max over in-bounds taps (padding never wins; torch
    semantics: first strict maximum in row-major tap order, NaN wins; an all -inf
    window reports its first non-negative tap)."""
    xs, lead = _planes(x)
    P, H, W = xs.shape
    kh, kw = kernel
    sh, sw = stride
    dh, dw = dilation
    pt, pl, pb, pr = pads
    Ho = out_len(H, kh, sh, dh, pt, pb, ceil_mode)
    Wo = out_len(W, kw, sw, dw, pl, pr, ceil_mode)
    val = np.empty((P, Ho, Wo))
    idx = np.empty((P, Ho, Wo), np.int64)
    for p in range(P):
        for i in range(Ho):
            for j in range(Wo):
                # torch starts from the first non-negative tap (even when it is past the
                # end: a window wholly in the padding gives -inf at that position)
                h_first = next(i * sh - pt + a * dh for a in range(kh) if i * sh - pt + a * dh >= 0)
                w_first = next(j * sw - pl + b * dw for b in range(kw) if j * sw - pl + b * dw >= 0)
                best, bi = -np.inf, h_first * W + w_first
                for a in range(kh):
                    for b in range(kw):
                        h = i * sh - pt + a * dh
                        w = j * sw - pl + b * dw
                        if not (0 <= h < H and 0 <= w < W):
                            continue
                        v = xs[p, h, w]
                        if v > best or np.isnan(v):
                            best, bi = v, h * W + w
                val[p, i, j], idx[p, i, j] = best, bi
    return val.reshape(lead + (Ho, Wo)), idx.reshape(lead + (Ho, Wo))


def avg_pool2d_golden(x, kernel, stride, pads, ceil_mode=False, count_include_pad=True, divisor_override=0):
    """torch avg_pool2d: sum of in-bounds taps / divisor, where the divisor is the
    override, or the window clipped to [-pad_begin, size + pad_end) (count_include_pad),
    or the number of in-bounds taps."""
    xs, lead = _planes(x)
    P, H, W = xs.shape
    kh, kw = kernel
    sh, sw = stride
    pt, pl, pb, pr = pads
    Ho = out_len(H, kh, sh, 1, pt, pb, ceil_mode)
    Wo = out_len(W, kw, sw, 1, pl, pr, ceil_mode)
    out = np.empty((P, Ho, Wo))
    for i in range(Ho):
        h0 = i * sh - pt
        h1 = min(h0 + kh, H + pb)
        for j in range(Wo):
            w0 = j * sw - pl
            w1 = min(w0 + kw, W + pr)
            hs, he, ws, we = max(h0, 0), min(h1, H), max(w0, 0), min(w1, W)
            if divisor_override:
                div = divisor_override
            elif count_include_pad:
                div = (h1 - h0) * (w1 - w0)
            else:
                div = (he - hs) * (we - ws)
            for p in range(P):
                out[p, i, j] = xs[p, hs:he, ws:we].sum() / div
    return out.reshape(lead + (Ho, Wo))


def adaptive_avg_pool2d_golden(x, output_size):
    """torch adaptive_avg_pool2d: cell (i, j) averages rows floor(i*H/Ho) ..
    ceil((i+1)*H/Ho) - 1 and the matching columns."""
    xs, lead = _planes(x)
    P, H, W = xs.shape
    Ho, Wo = output_size
    out = np.empty((P, Ho, Wo))
    for i in range(Ho):
        hs, he = (i * H) // Ho, math.ceil((i + 1) * H / Ho)
        for j in range(Wo):
            ws, we = (j * W) // Wo, math.ceil((j + 1) * W / Wo)
            out[:, i, j] = xs[:, hs:he, ws:we].mean(axis=(1, 2))
    return out.reshape(lead + (Ho, Wo))
