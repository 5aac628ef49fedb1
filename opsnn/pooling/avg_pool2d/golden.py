"""float64 reference for AvgPool2d (tests only), written naively (one
window at a time, explicit loops) and independently of the kernel. Arguments follow
the op def; pads are always ``(top, left, bottom, right)``."""
from __future__ import annotations

import numpy as np

from ..common.golden import golden_planes, out_len


def avg_pool2d_golden(x, kernel, stride, pads, ceil_mode=False, count_include_pad=True, divisor_override=0):
    """torch avg_pool2d: sum of in-bounds taps / divisor, where the divisor is the
    override, or the window clipped to [-pad_begin, size + pad_end) (count_include_pad),
    or the number of in-bounds taps."""
    xs, lead = golden_planes(x)
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
