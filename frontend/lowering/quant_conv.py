"""Lowering of ONNX ConvInteger and QLinearConv onto aclnnQuantConvolution (the int8
Cube convolution, ``opsnn/conv/quant_convolution``).

==============  =====================================================================
ONNX op         lowered to
==============  =====================================================================
ConvInteger     aclnnQuantConvolution with an INT32 output (the accumulator, no scale)
QLinearConv     aclnnQuantConvolution, FixPipe requant to int8 / uint8 with the output
                zero point as ``offset`` (round half to even, saturate)
==============  =====================================================================

The Cube multiplies int8 x int8 only (CANN's QuantConvolution takes INT8 input and
weight), so zero points and uint8 operands are folded at prepare time, as
:mod:`.quant` does for MatMulInteger:

* the constant weight becomes ``w8 = w - w_zero_point`` (per tensor or per output
  channel). Where that leaves int8 (|values| up to 255) it is split into two int8
  parts ``w1 = clip(w8)``, ``w2 = w8 - w1`` stacked along the input channels and run
  on the input concatenated with itself (aclnnCat on dim 1): ``conv([x, x], [w1, w2])
  == conv(x, w8)``; groups > 1 are refused then (the doubled channels would not stay
  inside their group);
* a uint8 input is shifted to int8 on the device (``x - 128``: Cast to int16, Adds,
  Cast), so its zero point becomes ``zx' = zx - 128``;
* the input zero point is the op's ``offsetx`` (the pad value) plus an INT32 bias
  ``-zx' * sum(w8[co])``: ``conv(x' padded with zx', w8) - zx' * sum(w8)`` is the
  convolution of ``x - zx`` zero-padded, which is what ONNX defines;
* QLinearConv's scale is ``x_scale * w_scale / y_scale`` (float32, [1] or per output
  channel), its optional int32 bias B joins the INT32 bias (added before the scale, as
  ONNX does), and ``y_zero_point`` is the requant ``offset``; the output dtype is
  ``y_zero_point``'s (else the input's).

1-D convolutions run as 2-D over the [N, C, 1, L] view; 3-D is refused (the op builds
2-D only). The weight, scales and zero points must be constants (initializers).
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import bad
from .cnn_common import _geometry, _lift, _pool_out, _to_2d, conv_weight
from .quant import _const, _shift, requant_scale
from .registry import register
from .tensors import DTensor, prepare


def _int8_parts(node: Node, w: np.ndarray, zw, groups: int) -> np.ndarray:
    """``w - zw`` (zw per tensor or per output channel) as int8 [Cout, Cg, kh, kw], or
    as [Cout, 2*Cg, kh, kw] (two int8 parts, module doc) where it leaves int8."""
    w8 = w.astype(np.int64)
    if zw is not None:
        z = np.asarray(zw, np.int64).reshape(-1)
        if z.size not in (1, w.shape[0]):
            raise bad(node, f"w_zero_point of {z.size} values: expected 1 or one per output channel ({w.shape[0]})")
        w8 = w8 - z.reshape((-1,) + (1,) * (w.ndim - 1))
    if w8.min(initial=0) >= -128 and w8.max(initial=0) <= 127:
        return w8.astype(np.int8)
    if groups != 1:
        raise bad(node, "w - w_zero_point leaves int8 and the convolution is grouped: the two-part int8 split "
                        "needs group=1")
    w1 = np.clip(w8, -128, 127)
    return np.concatenate([w1, w8 - w1], axis=1).astype(np.int8)


def quant_conv(ctx, node: Node, x: DTensor, zx, w: np.ndarray, zw, scale, out_dtype, zy: int = 0,
               bias_i32: np.ndarray | None = None):
    """Lower ``conv(x - zx, w - zw)`` [``* scale + zy``] onto aclnnQuantConvolution
    (module doc). ``scale`` None: an INT32 output (ConvInteger). Returns (out, calls)."""
    nsp, kernel, g = conv_weight(node, x, w)
    if nsp == 3:
        raise bad(node, "a 3-D quantized convolution is not supported (aclnnQuantConvolution is built for 2-D)")
    st, dl, pads = _geometry(node, x, kernel)
    out_sp = [_pool_out(x.shape[2 + i], kernel[i], st[i], pads[i], pads[i + nsp], dl[i]) for i in range(nsp)]
    tag = node.outputs[0]
    zx = np.asarray(0 if zx is None else zx).reshape(-1)
    if zx.size != 1:
        raise bad(node, "a per-channel x_zero_point is not supported (ONNX defines it per tensor)")
    calls, zx = [], int(zx[0])
    if x.dtype == np.uint8:
        x, calls = _shift(ctx, node, x, -128, np.int8, f"{tag}__x_i8")
        zx -= 128
    elif x.dtype != np.int8:
        raise bad(node, f"x dtype {x.dtype} is not int8 or uint8")
    w8 = _int8_parts(node, w, zw, g)
    if w8.shape[1] * g != x.shape[1]:  # the two-part split: run on [x, x]
        xx = ctx.alloc(f"{tag}__x_twice", (x.shape[0], 2 * x.shape[1]) + tuple(x.shape[2:]), np.int8)
        calls.append(prepare(node, "aclnnCat", opsnn.aclCreateTensorList([x.tensor, x.tensor]), 1, xx.tensor))
        x = xx
    bias = -zx * w8.astype(np.int64).reshape(w8.shape[0], -1).sum(axis=1)
    if bias_i32 is not None:
        bias = bias + np.asarray(bias_i32, np.int64).reshape(-1)
    out_dtype = np.dtype(out_dtype)
    out = ctx.alloc(tag, (x.shape[0], w8.shape[0], *out_sp), out_dtype)
    x4, o4 = x, out
    if nsp == 1:
        x4, o4 = _lift(ctx, node, x, "x"), _lift(ctx, node, out, "y")
        w8 = w8[:, :, None]
        kernel, st, dl, pads = _to_2d(kernel, st, dl, pads)
    padding = [pads[0], pads[2], pads[1], pads[3]]  # ONNX [top, left, bottom, right] -> (top, bottom, left, right)
    wt = ctx.upload(tag + "__w_int8", np.ascontiguousarray(w8))
    bt = ctx.upload(tag + "__bias_int32", bias.astype(np.int32)) if np.any(bias) else None
    sv = np.ones(1, np.float32) if scale is None else np.asarray(scale, np.float32).reshape(-1)
    st_t = ctx.upload(tag + "__scale", sv)
    off = ctx.upload(tag + "__offset", np.array([zy], np.float32)) if scale is not None and zy else None
    ia = opsnn.aclCreateIntArray
    calls.append(prepare(node, "aclnnQuantConvolution", x4.tensor, wt.tensor, bt and bt.tensor, st_t.tensor,
                         off and off.tensor, ia(st), ia(padding), ia(dl), False, None, g, zx, "rint", o4.tensor))
    return out, calls


@register("ConvInteger")
def lower_conv_integer(ctx, node: Node, ins):
    x = ins[0]
    w = _const(ctx, node, 1, "w")
    out, calls = quant_conv(ctx, node, x, _const(ctx, node, 2, "x_zero_point", False), w,
                            _const(ctx, node, 3, "w_zero_point", False), None, np.int32)
    return [out], calls


#: QLinearConv's constant inputs after x, in ONNX order: (name, required)
_QLINEAR_CONSTS = (("x_scale", True), ("x_zero_point", False), ("w", True), ("w_scale", True),
                   ("w_zero_point", False), ("y_scale", True), ("y_zero_point", False), ("B", False))


@register("QLinearConv")
def lower_qlinear_conv(ctx, node: Node, ins):
    x = ins[0]
    c = {name: _const(ctx, node, i, name, req) for i, (name, req) in enumerate(_QLINEAR_CONSTS, start=1)}
    w, zy = c["w"], c["y_zero_point"]
    out_dtype = np.dtype(zy.dtype if zy is not None else x.dtype)
    if out_dtype not in (np.dtype(np.int8), np.dtype(np.uint8)):
        raise bad(node, f"output dtype {out_dtype} is not int8 or uint8")
    if np.size(c["w_scale"]) not in (1, w.shape[0]):
        raise bad(node, f"w_scale of {np.size(c['w_scale'])} values: expected 1 or one per output channel "
                        f"({w.shape[0]})")
    scale = requant_scale(c["x_scale"], c["w_scale"], c["y_scale"])
    zyv = int(np.asarray(zy).reshape(-1)[0]) if zy is not None else 0
    out, calls = quant_conv(ctx, node, x, c["x_zero_point"], w, c["w_zero_point"], scale, out_dtype, zyv, c["B"])
    return [out], calls
