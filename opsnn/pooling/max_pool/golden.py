"""float64 reference for MaxPool / MaxPool2dWithIndices (tests only), written naively (one
window at a time, explicit loops) and independently of the kernel. Arguments follow
the op def; pads are always ``(top, left, bottom, right)``."""
from __future__ import annotations

import numpy as np

from ..common.golden import golden_planes, out_len


def max_pool2d_golden(x, kernel, stride, pads, dilation=(1, 1), ceil_mode=False):
    """(values, indices): max over in-bounds taps (padding never wins; torch
    semantics: first strict maximum in row-major tap order, NaN wins; an all -inf
    window reports its first non-negative tap)."""
    xs, lead = golden_planes(x)
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
