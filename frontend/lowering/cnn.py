"""Lowering of the CNN ops: Conv, BatchNormalization, MaxPool, AveragePool,
GlobalAveragePool and LRN.

1-D Conv, MaxPool and AveragePool ([N, C, L] inputs) run as the 2-D aclnn op over
the [N, C, 1, L] view of the same memory (kernel, strides and dilations get a
leading 1, pads [b, e] become [0, b, 0, e]); 3-D Conv calls aclnnConvolution on the
5-D tensors. ConvTranspose, 3-D pooling, GlobalMaxPool, LpPool and MaxPool's Indices
output are :mod:`.pool_nd`, ConvTranspose and Col2Im :mod:`.cnn_nd` (both registered
from here). Training-mode BatchNormalization is refused.
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_float, attr_int, attr_ints, bad
from .cnn_common import _geometry, _lift, _pool_out, _spatial_rank, _to_2d, conv_weight
from .cnn_formats import lower_conv_packed  # (also registers TransData)
from . import cnn_nd  # noqa: F401  (ConvTranspose, Col2Im: registers its handlers)
from .pool_nd import (avgpool_needs_conv, lower_avgpool_3d, lower_avgpool_by_conv, lower_maxpool_3d,
                     lower_maxpool_indices_2d, lower_maxpool_padded, maxpool_needs_pad)
from . import like_ops  # noqa: F401  (CastLike, EyeLike, CenterCropPad: registers its handlers)
from .registry import register
from .tensors import DTensor, prepare


@register("Conv")
def lower_conv(ctx, node: Node, ins: list[DTensor], fused: tuple | None = None, residual: DTensor | None = None):
    """Conv over [N, C, H, W] or [N, C, D, H, W] (aclnnConvolution takes both), or
    [N, C, L] as a 2-D Conv over the [N, C, 1, L] view.
    ``fused``: (activation, alpha, beta, member op types) for aclnnFusedConvolution
    (graph mode, :mod:`frontend.lowering.fused`). Packed operands (graph mode's
    ``keep_nc1hwc0``): :mod:`.cnn_formats`. ``residual``: the tensor of the output's
    shape the fused kernel adds before its activation (2-D only)."""
    if node.attrs.get("formats"):
        return lower_conv_packed(ctx, node, ins, fused, residual)
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    nsp, kernel, g = conv_weight(node, x, w)
    st, dl, pads = _geometry(node, x, kernel)
    out_sp = [_pool_out(x.shape[2 + i], kernel[i], st[i], pads[i], pads[i + nsp], dl[i]) for i in range(nsp)]
    out = ctx.alloc(node.outputs[0], (x.shape[0], w.shape[0], *out_sp), x.dtype)
    x4, w4, o4 = x, w, out
    if nsp == 1:
        x4, w4, o4 = _lift(ctx, node, x, "x"), _lift(ctx, node, w, "w"), _lift(ctx, node, out, "y")
        kernel, st, dl, pads = _to_2d(kernel, st, dl, pads)
    padding = [p for i in range(len(kernel)) for p in (pads[i], pads[i + len(kernel)])]  # [b0, e0, b1, e1, ...]
    ia = opsnn.aclCreateIntArray
    if residual is not None and (nsp != 2 or tuple(residual.shape) != tuple(out.shape)):
        raise bad(node, f"residual {list(residual.shape)} must be a 2-D convolution's output shape {list(out.shape)}")
    if fused is not None:
        extra = (residual.tensor,) if residual is not None else ()
        call = prepare(node, "aclnnFusedConvolution", x4.tensor, w4.tensor, b.tensor if b else None, ia(st),
                       ia(padding), ia(dl), False, ia([0] * len(kernel)), g, *fused, o4.tensor, 0, *extra)
        return [out], [call]
    call = prepare(node, "aclnnConvolution", x4.tensor, w4.tensor, b.tensor if b else None, ia(st), ia(padding),
                   ia(dl), False, ia([0] * len(kernel)), g, o4.tensor, 0)
    return [out], [call]


def _training_reason(node: Node, opset: int) -> str | None:
    """Why a BatchNormalization node runs in training mode (operator text), or None."""
    outs = [o for o in node.outputs if o]
    if opset >= 14:
        return "training_mode=1" if attr_int(node, "training_mode", 0) else None
    if opset >= 7:
        return f"{len(outs)} outputs (opsets 7-13: more than Y means training)" if len(outs) > 1 else None
    return None if attr_int(node, "is_test", 0) else "is_test=0 (opset < 7)"


@register("BatchNormalization", opset=True)
def lower_batchnorm(ctx, node: Node, ins, opset: int = 15):
    """BatchNormalization at inference (running statistics) -> aclnnBatchNorm.
    Training mode (see :func:`_training_reason`) and statistics that are not
    per-channel [C] (spatial=0) are refused."""
    why = _training_reason(node, opset)
    if why:
        raise bad(node, f"training-mode BatchNormalization is not supported ({why})")
    x, scale, bias, mean, var = ins[:5]
    if len(x.shape) < 2:
        raise bad(node, f"input shape {list(x.shape)} needs at least 2 dims [N, C, ...]")
    c = x.shape[1]
    for name, t in (("scale", scale), ("B", bias), ("mean", mean), ("var", var)):
        if tuple(t.shape) != (c,):
            raise bad(node, f"{name} has shape {list(t.shape)}; only per-channel statistics of shape [{c}] are "
                            "supported")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    call = prepare(node, "aclnnBatchNorm", x.tensor, scale.tensor, bias.tensor, mean.tensor, var.tensor, False,
                 attr_float(node, "momentum", 0.9), attr_float(node, "epsilon", 1e-5), out.tensor, None, None)
    return [out], [call]


def _pool_setup(ctx, node: Node, x: DTensor, dilations: bool):
    """Shared MaxPool/AveragePool geometry: (x4, out, o4, kernel, strides, dilations,
    pads, ceil) with 1-D pools lifted to 2-D over an H = 1 view."""
    nsp = _spatial_rank(node, x)
    kernel = attr_ints(node, "kernel_shape", length=nsp)
    ceil = bool(attr_int(node, "ceil_mode", 0))
    st, dl, pads = _geometry(node, x, kernel, dilations)
    out_sp = [_pool_out(x.shape[2 + i], kernel[i], st[i], pads[i], pads[i + nsp], dl[i], ceil) for i in range(nsp)]
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], *out_sp), x.dtype)
    if nsp == 1:
        kernel, st, dl, pads = _to_2d(kernel, st, dl, pads)
        return _lift(ctx, node, x, "x"), out, _lift(ctx, node, out, "y"), kernel, st, dl, pads, ceil
    return x, out, out, kernel, st, dl, pads, ceil


@register("MaxPool")
def lower_maxpool(ctx, node, ins):
    """MaxPool over [N, C, H, W] or [N, C, L] (as H = 1) -> aclnnMaxPool; 3-D pools and
    the Indices output: :mod:`.cnn_nd`."""
    want_idx = len(node.outputs) > 1 and bool(node.outputs[1])
    if len(ins[0].shape) >= 3 and not want_idx and maxpool_needs_pad(node, ins[0]):
        return lower_maxpool_padded(ctx, node, ins)
    if len(ins[0].shape) == 5:
        return lower_maxpool_3d(ctx, node, ins)
    if want_idx:
        if len(ins[0].shape) != 4:
            raise bad(node, "the Indices output is supported for 2-D and 3-D pools only")
        return lower_maxpool_indices_2d(ctx, node, ins)
    x4, out, o4, k, st, dl, pads, ceil = _pool_setup(ctx, node, ins[0], True)
    ia = opsnn.aclCreateIntArray
    call = prepare(node, "aclnnMaxPool", x4.tensor, ia(k), ia(st), 0, ia(pads), ia(dl), int(ceil), o4.tensor)
    return [out], [call]


@register("AveragePool")
def lower_avgpool(ctx, node, ins):
    """AveragePool over [N, C, H, W] or [N, C, L] (as H = 1) -> aclnnAvgPool2d; 3-D,
    dilations and pads over half the kernel: :mod:`.cnn_nd`."""
    if len(ins[0].shape) >= 3 and avgpool_needs_conv(node, ins[0]):
        return lower_avgpool_by_conv(ctx, node, ins)
    if len(ins[0].shape) == 5:
        return lower_avgpool_3d(ctx, node, ins)
    x4, out, o4, k, st, _, pads, ceil = _pool_setup(ctx, node, ins[0], False)
    ia = opsnn.aclCreateIntArray
    call = prepare(node, "aclnnAvgPool2d", x4.tensor, ia(k), ia(st), ia(pads), ceil,
                 bool(attr_int(node, "count_include_pad", 0)), 0, 0, o4.tensor)
    return [out], [call]


@register("GlobalAveragePool")
def lower_global_avgpool(ctx, node, ins):
    """GlobalAveragePool over any number of spatial dims: [N, C, *S] viewed as
    [N, C, 1, prod(S)] -> aclnnAdaptiveAvgPool2d to [N, C, 1, 1]; output [N, C, 1, ...]."""
    x = ins[0]
    if len(x.shape) < 3:
        raise bad(node, f"input shape {list(x.shape)} needs at least 3 dims [N, C, spatial...]")
    n, c = x.shape[:2]
    out = ctx.alloc(node.outputs[0], (n, c) + (1,) * (len(x.shape) - 2), x.dtype)
    x4, o4 = x, out
    if len(x.shape) != 4:
        x4 = ctx.view(x, f"{node.outputs[0]}__x_4d", (n, c, 1, int(np.prod(x.shape[2:], dtype=np.int64))))
        o4 = ctx.view(out, f"{node.outputs[0]}__y_4d", (n, c, 1, 1))
    return [out], [prepare(node, "aclnnAdaptiveAvgPool2d", x4.tensor, opsnn.aclCreateIntArray([1, 1]), o4.tensor)]


@register("LRN")
def lower_lrn(ctx, node, ins):
    x = ins[0]
    size = attr_int(node, "size")
    if size < 1:
        raise bad(node, f"size {size} must be >= 1")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, "aclnnLrn", x.tensor, size, attr_float(node, "alpha", 1e-4),
                         attr_float(node, "beta", 0.75), attr_float(node, "bias", 1.0), out.tensor)]
