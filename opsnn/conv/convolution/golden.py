"""float64 references for convolution (tests only), written independently of the kernel
(no im2col, no sliding windows): one shifted strided slice per kernel tap,
contracted with that tap's weights, plus a plain-loop version for tiny shapes."""
from __future__ import annotations

import numpy as np


def _pads(padding):
    p = [int(v) for v in padding]
    return (p[0], p[0], p[1], p[1]) if len(p) == 2 else tuple(p)  # (top, bottom, left, right)


def conv2d_golden(x, w, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    """NCHW conv in float64. ``padding`` is (ph, pw) or (top, bottom, left, right)."""
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    sh, sw = stride
    dh, dw = dilation
    pt, pb, pl, pr = _pads(padding)
    xp = np.zeros((n, c, h + pt + pb, wd + pl + pr))
    xp[:, :, pt:pt + h, pl:pl + wd] = x
    ho = (h + pt + pb - dh * (kh - 1) - 1) // sh + 1
    wo = (wd + pl + pr - dw * (kw - 1) - 1) // sw + 1
    g, cog = groups, co // groups
    out = np.zeros((n, g, cog, ho, wo))
    wg = w.reshape(g, cog, cg, kh, kw)
    for i in range(kh):
        for j in range(kw):
            r0, c0 = i * dh, j * dw
            xs = xp[:, :, r0:r0 + sh * (ho - 1) + 1:sh, c0:c0 + sw * (wo - 1) + 1:sw].reshape(n, g, cg, ho, wo)
            out += np.einsum("ngchw,goc->ngohw", xs, wg[:, :, :, i, j])
    out = out.reshape(n, co, ho, wo)
    if bias is not None:
        out += np.asarray(bias, dtype=np.float64).reshape(1, co, 1, 1)
    return out


def conv2d_naive(x, w, bias=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1), groups=1):
    """The definition as nested loops (slow: tiny shapes only), for checking the golden."""
    x = np.asarray(x, dtype=np.float64)
    w = np.asarray(w, dtype=np.float64)
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    pt, pb, pl, pr = _pads(padding)
    ho = (h + pt + pb - dilation[0] * (kh - 1) - 1) // stride[0] + 1
    wo = (wd + pl + pr - dilation[1] * (kw - 1) - 1) // stride[1] + 1
    cog = co // groups
    out = np.zeros((n, co, ho, wo))
    for b in range(n):
        for o in range(co):
            gi = o // cog
            for y in range(ho):
                for xx in range(wo):
                    acc = 0.0 if bias is None else float(bias[o])
                    for ci in range(cg):
                        for i in range(kh):
                            for j in range(kw):
                                r = y * stride[0] + i * dilation[0] - pt
                                q = xx * stride[1] + j * dilation[1] - pl
                                if 0 <= r < h and 0 <= q < wd:
                                    acc += x[b, gi * cg + ci, r, q] * w[o, ci, i, j]
                    out[b, o, y, xx] = acc
    return out
