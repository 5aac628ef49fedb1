"""Kernel half of aclnnQuantConvolution: the tile program and the numpy body.

Formula (CANN aclnnQuantConvolution doc: the convolution of aclnnConvolution, times a
per-output-channel scale, plus a bias):
  acc[n, co] = sum over (c, i, j) in co's group of
               input_padded[n, c, y*sh + i*dh, x*sw + j*dw] * weight[co, c, i, j]
  in int32 (int8 x int8 products accumulated exactly in L0C), where the padded border
  holds ``offsetx`` (the feature map's zero point, so that a caller who subtracts
  ``offsetx * sum(weight[co])`` through an INT32 bias gets the convolution of
  ``input - offsetx`` zero-padded) [A: CANN documents offsetx without its meaning on
  Atlas A2; GE's Conv2D ``offset_x`` attribute is the int8 input offset its Load3D pads
  with, which is what is modelled];
  INT32 bias:        out = (acc + bias) * scale [+ offset]
  float bias:        out = acc * scale + bias
  FLOAT16/BF16 out:  written as the float result;
  INT8/UINT8 out:    round half to even (roundMode "rint") and saturate to the type's
                     range, ``offset`` (the output zero point) added before rounding;
  INT32 out:         acc (+ INT32 bias), no scale.
The dequant arithmetic is done in float64 from the fp32 scale (an assumption chosen so
that a requant matches the ONNX reference's rounding exactly; real FixPipe uses the
19-bit scale aclnnTransQuantParamV2 packs).

Timing: the float convolution's implicit-GEMM cube program
(``opsnn.conv.convolution.kernel.tile_program``) with 1-byte operands at the int8
cube rate, FIXPIPE writing ``out_itemsize`` bytes per element; the dequant rides on
FixPipe at no extra bytes (``args["epilogue"] == ["dequant"]``, as aclnnQuantMatmulV4).
A bias is a one-off load of base_n 4-byte values into the BiasTable per output tile.
"""
from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from npu_sim.program import KernelSpec

from ...base.memview import tensor_view, write_out
from ..convolution.kernel import tile_program as conv_tile_program
from .tiling_data import ConvolutionTilingData

#: (min, max) of the integer outputs FixPipe saturates to
SATURATE = {np.dtype(np.int8): (-128, 127), np.dtype(np.uint8): (0, 255)}


def tile_program(td: ConvolutionTilingData, args: dict, tiling_key: int, *, dequant: bool) -> KernelSpec:
    """The AIC kernel spec of an int8 convolution tiled as ``td``; ``dequant``: FixPipe
    applies the scale (every out dtype but INT32)."""
    return conv_tile_program(td, args, tiling_key, name="QuantConvolution",
                             epilogue=("dequant",) if dequant else ())


def conv2d_int8(x: np.ndarray, w: np.ndarray, stride, pads, dilation, groups: int, pad_value: int = 0) -> np.ndarray:
    """Exact int32 convolution of int8 NCHW ``x`` by int8 ``w`` [Cout, C/groups, kh, kw];
    ``pads`` (top, bottom, left, right) filled with ``pad_value``. Returns int32
    [N, Cout, Ho, Wo]. The GEMM runs in float64, exact: every partial sum is an
    integer below 2^53 (|product| <= 2^14, K far below 2^39)."""
    n, c, h, wd = x.shape
    co, cg, kh, kw = w.shape
    (sh, sw), (dh, dw), (pt, pb, pl, pr) = stride, dilation, pads
    cog = co // groups
    ekh, ekw = dh * (kh - 1) + 1, dw * (kw - 1) + 1
    ho, wo = (h + pt + pb - ekh) // sh + 1, (wd + pl + pr - ekw) // sw + 1
    xp = np.full((n, c, h + pt + pb, wd + pl + pr), float(pad_value), np.float64)
    xp[:, :, pt:pt + h, pl:pl + wd] = x
    v = sliding_window_view(xp, (ekh, ekw), axis=(2, 3))[:, :, ::sh, ::sw, ::dh, ::dw][:, :, :ho, :wo]
    cols = v.reshape(n, groups, cg, ho, wo, kh, kw).transpose(1, 0, 3, 4, 2, 5, 6)
    cols = cols.reshape(groups, n * ho * wo, cg * kh * kw)
    wt = w.astype(np.float64).reshape(groups, cog, cg * kh * kw).transpose(0, 2, 1)
    r = np.matmul(cols, wt)                                   # [G, N*Ho*Wo, Cout/G]
    r = r.reshape(groups, n, ho, wo, cog).transpose(1, 0, 4, 2, 3).reshape(n, co, ho, wo)
    return np.rint(r).astype(np.int64).astype(np.int32)


def fixpipe_out(acc: np.ndarray, scale, offset, bias, out_dtype) -> np.ndarray:
    """FixPipe's conversion of the int32 accumulator ``acc`` [N, Cout, ...] to
    ``out_dtype`` (module doc). ``scale`` / ``offset``: [1] or [Cout] float arrays (or
    None); ``bias``: [Cout] int32 (before the scale) or float (after), or None."""
    odt = np.dtype(out_dtype)
    chan = (1, -1) + (1,) * (acc.ndim - 2)
    r = acc.astype(np.int64)
    if bias is not None and bias.dtype.kind in "iu":
        r = r + bias.astype(np.int64).reshape(chan)
    if odt == np.int32:
        return r.astype(np.int32)
    f = r.astype(np.float64) * np.asarray(scale, np.float32).astype(np.float64).reshape(chan)
    if bias is not None and bias.dtype.kind not in "iu":
        f = f + np.asarray(bias, np.float64).reshape(chan)
    if odt in SATURATE:
        if offset is not None:
            f = f + np.asarray(offset, np.float32).astype(np.float64).reshape(chan)
        lo, hi = SATURATE[odt]
        return np.clip(np.rint(f), lo, hi).astype(odt)
    return f


def quant_conv_body(in_t, w_t, scale_t, offset_t, bias_t, out_t, stride, pads, dilation, groups: int,
                    offsetx: int):
    """Body factory. Slots: input, weight, scale, [offset,] [bias,] output."""
    def make(addrs, ws):
        def body(mem):
            if out_t.numel == 0:
                return
            it = iter(addrs)
            x = tensor_view(mem, next(it), in_t)
            w = tensor_view(mem, next(it), w_t)
            scale = np.asarray(tensor_view(mem, next(it), scale_t))
            offset = np.asarray(tensor_view(mem, next(it), offset_t)) if offset_t is not None else None
            bias = np.asarray(tensor_view(mem, next(it), bias_t)) if bias_t is not None else None
            acc = conv2d_int8(x, w, stride, pads, dilation, groups, offsetx)
            write_out(mem, addrs[-1], out_t, fixpipe_out(acc, scale, offset, bias, out_t.np_dtype))
        return body
    return make
