"""Numpy bodies of aclnnConvolution's 1-D, 3-D and transposed forms (the 2-D forward
body is ``kernel.py``'s :func:`conv2d_nchw`, which these reuse).

* 1-D [N, C, L]: the 2-D body over the [N, C, 1, L] view (a leading kernel/stride 1).
* 3-D [N, C, D, H, W]: the input is padded once along D; for each depth tap ``i`` the
  slices ``xp[:, :, i*dd :: sd]`` (Do of them) are stacked into the batch and run
  through the 2-D body with that tap's weights ``w[:, :, i]``; the kd partial sums add
  up in float32 (the Cube's L0C accumulates across K chunks alike).
* transposed (any rank): the stride-1 convolution of the zero-inserted input (the
  input with ``s - 1`` zeros between neighbours along each axis), padded by
  ``d*(k-1) - pad_begin`` before and ``d*(k-1) - pad_end + output_padding`` after
  (a negative amount crops), by the weight flipped along every spatial axis with its
  in/out channels swapped per group: [Cin, Cout/g, k...] -> [Cout, Cin/g, k...].
  This is the same program the tiling times (``tiling.py``'s ``zero_insert_gemm``).
"""
from __future__ import annotations

import numpy as np

from .kernel import conv2d_nchw, conv_body_from


def _pad_crop(x: np.ndarray, before, after) -> np.ndarray:
    """Zero-pad (positive) or crop (negative) each spatial axis of [N, C, *S]."""
    pads = [(0, 0), (0, 0)] + [(max(0, b), max(0, a)) for b, a in zip(before, after)]
    x = np.pad(x, pads)
    sl = [slice(None), slice(None)] + [slice(max(0, -b), x.shape[2 + i] - max(0, -a))
                                       for i, (b, a) in enumerate(zip(before, after))]
    return x[tuple(sl)]


def conv_nd(x: np.ndarray, w: np.ndarray, stride, pads_be, dilation, groups: int, bias=None,
            compute=None) -> np.ndarray:
    """float32 forward convolution of [N, C, *S] (1, 2 or 3 spatial dims) by
    [Cout, C/groups, *k]; ``pads_be`` is per axis (begin, end). Returns [N, Cout, *So]."""
    nsp = x.ndim - 2
    if nsp == 1:
        (pb, pe), = pads_be
        r = conv2d_nchw(x[:, :, None], w[:, :, None], (1, stride[0]), (0, 0, pb, pe), (1, dilation[0]), groups,
                        bias, compute)
        return r[:, :, 0]
    if nsp == 2:
        (pt, pb), (pl, pr) = pads_be
        return conv2d_nchw(x, w, stride, (pt, pb, pl, pr), dilation, groups, bias, compute)
    n, c, d = x.shape[:3]
    co, kd = w.shape[0], w.shape[2]
    (db, de), hp, wp = pads_be
    xp = np.zeros((n, c, d + db + de) + x.shape[3:], np.float32)
    xp[:, :, db:db + d] = x
    sd, dd = stride[0], dilation[0]
    do = (d + db + de - dd * (kd - 1) - 1) // sd + 1
    acc = None
    for i in range(kd):
        sl = xp[:, :, i * dd: i * dd + sd * (do - 1) + 1: sd]             # [N, C, Do, H, W]
        planes = sl.transpose(0, 2, 1, 3, 4).reshape((n * do, c) + x.shape[3:])
        r = conv2d_nchw(planes, w[:, :, i], stride[1:], (*hp, *wp), dilation[1:], groups, None, compute)
        acc = r if acc is None else acc + r
    out = acc.reshape((n, do, co) + acc.shape[2:]).transpose(0, 2, 1, 3, 4)
    if bias is not None:
        out = out + bias.astype(np.float32).reshape((1, co, 1, 1, 1))
    return np.ascontiguousarray(out)


def conv_transpose_nd(x: np.ndarray, w: np.ndarray, stride, pads_be, dilation, output_padding, groups: int,
                      bias=None, compute=None) -> np.ndarray:
    """float32 transposed convolution of [N, Cin, *S] by [Cin, Cout/groups, *k] (module
    doc). Returns [N, Cout, *So], So = (S-1)*s - pb - pe + d*(k-1) + 1 + output_padding."""
    nsp = x.ndim - 2
    n, cin = x.shape[:2]
    cog, ks = w.shape[1], w.shape[2:]
    z = np.zeros((n, cin) + tuple((sz - 1) * s + 1 for sz, s in zip(x.shape[2:], stride)), np.float32)
    z[(slice(None), slice(None)) + tuple(slice(None, None, s) for s in stride)] = x
    ext = [d * (k - 1) for d, k in zip(dilation, ks)]
    z = _pad_crop(z, [e - b for e, (b, _) in zip(ext, pads_be)],
                  [e - a + op for e, (_, a), op in zip(ext, pads_be, output_padding)])
    cg = cin // groups
    wf = np.flip(w.astype(np.float32), axis=tuple(range(2, 2 + nsp)))
    wt = wf.reshape((groups, cg, cog) + ks).swapaxes(1, 2).reshape((groups * cog, cg) + ks)
    return conv_nd(z, np.ascontiguousarray(wt), (1,) * nsp, [(0, 0)] * nsp, dilation, groups, bias, compute)


def conv_nd_body(in_t, w_t, bias_t, out_t, stride, pads_be, dilation, groups, *, transposed=False,
                 output_padding=(), compute=None, act=None):
    """Body factory of the 1-D / 3-D / transposed forms. Slots: input, weight, [bias,] output."""
    if transposed:
        def fn(x, w, b):
            return conv_transpose_nd(x, w, stride, pads_be, dilation, output_padding, groups, b, compute)
    else:
        def fn(x, w, b):
            return conv_nd(x, w, stride, pads_be, dilation, groups, b, compute)
    return conv_body_from(in_t, w_t, bias_t, out_t, fn, act)
