"""float64 references for convolution (tests only), written independently of the kernel
(no im2col, no sliding windows): one shifted strided slice per kernel tap,
contracted with that tap's weights, plus a plain-loop version for tiny shapes."""
from __future__ import annotations

import itertools

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


def _nd_args(x, w, stride, dilation, pads_be):
    """float64 operands and the N-d defaults (strides, dilations 1; no padding)."""
    x, w = np.asarray(x, dtype=np.float64), np.asarray(w, dtype=np.float64)
    nsp = x.ndim - 2
    return x, w, stride or (1,) * nsp, dilation or (1,) * nsp, pads_be or [(0, 0)] * nsp


def conv_nd_golden(x, w, bias=None, stride=None, pads_be=None, dilation=None, groups=1):
    """Forward convolution of [N, C, *S] (any number of spatial dims) in float64:
    one shifted strided slice per kernel tap. ``pads_be``: per axis (begin, end)."""
    x, w, stride, dilation, pads_be = _nd_args(x, w, stride, dilation, pads_be)
    nsp = x.ndim - 2
    n, c = x.shape[:2]
    co, cg, ks = w.shape[0], w.shape[1], w.shape[2:]
    xp = np.pad(x, [(0, 0), (0, 0)] + [tuple(p) for p in pads_be])
    outs = [(xp.shape[2 + i] - dilation[i] * (ks[i] - 1) - 1) // stride[i] + 1 for i in range(nsp)]
    g, cog = groups, co // groups
    out = np.zeros((n, g, cog, *outs))
    wg = w.reshape(g, cog, cg, *ks)
    for tap in itertools.product(*[range(k) for k in ks]):
        sl = tuple(slice(t * d, t * d + s * (o - 1) + 1, s) for t, d, s, o in zip(tap, dilation, stride, outs))
        xs = xp[(slice(None), slice(None)) + sl].reshape(n, g, cg, -1)
        out += np.einsum("ngcp,goc->ngop", xs, wg[(slice(None),) * 3 + tap]).reshape(out.shape)
    out = out.reshape(n, co, *outs)
    if bias is not None:
        out += np.asarray(bias, dtype=np.float64).reshape((1, co) + (1,) * nsp)
    return out


def conv_transpose_golden(x, w, bias=None, stride=None, pads_be=None, dilation=None, output_padding=None,
                          groups=1):
    """Transposed convolution in float64 by its scatter definition (not the zero-insert
    trick the kernel uses): each input pixel adds ``x * w[ci, o, tap]`` at
    ``pixel*s + tap*d - pad_begin``; the output is ``(S-1)*s - pb - pe + d*(k-1) + 1 +
    output_padding`` long. ``w``: [Cin, Cout/groups, *k]."""
    x, w, stride, dilation, pads_be = _nd_args(x, w, stride, dilation, pads_be)
    nsp = x.ndim - 2
    output_padding = output_padding or (0,) * nsp
    n, cin, sp = x.shape[0], x.shape[1], x.shape[2:]
    cog, ks = w.shape[1], w.shape[2:]
    g, cg = groups, cin // groups
    full = [(s_ - 1) * st + d * (k - 1) + 1 + op + max(0, -pb) for s_, st, d, k, op, (pb, _) in
            zip(sp, stride, dilation, ks, output_padding, pads_be)]
    buf = np.zeros((n, g, cog, *full))
    xg = x.reshape(n, g, cg, *sp)
    wg = w.reshape(g, cg, cog, *ks)
    for tap in itertools.product(*[range(k) for k in ks]):
        contrib = np.einsum("ngc...,gco->ngo...", xg, wg[(slice(None),) * 3 + tap])
        sl = tuple(slice(t * d, t * d + st * (s_ - 1) + 1, st) for t, d, st, s_ in zip(tap, dilation, stride, sp))
        buf[(slice(None),) * 3 + sl] += contrib
    outs = [(s_ - 1) * st - pb - pe + d * (k - 1) + 1 + op for s_, st, d, k, op, (pb, pe) in
            zip(sp, stride, dilation, ks, output_padding, pads_be)]
    crop = tuple(slice(max(0, pb), max(0, pb) + o) for (pb, _), o in zip(pads_be, outs))
    out = np.zeros((n, g, cog, *outs))
    got = buf[(slice(None),) * 3 + crop]
    out[(slice(None),) * 3 + tuple(slice(0, s) for s in got.shape[3:])] = got
    out = out.reshape(n, g * cog, *outs)
    if bias is not None:
        out += np.asarray(bias, dtype=np.float64).reshape((1, g * cog) + (1,) * nsp)
    return out
