"""Lowering of the CNN ops beyond :mod:`.cnn`'s 2-D forward set: ConvTranspose (1-D,
2-D, 3-D; aclnnConvolution with ``transposed=true``).

ConvTranspose geometry (ONNX ConvTranspose-11+): with ``output_shape`` (or a SAME
``auto_pad``, which asks for ``input * stride``) the total padding per axis is
``stride*(in-1) + output_padding + d*(k-1) + 1 - out``, split ``total//2`` at the
begin for SAME_UPPER (and at the end otherwise); a negative end (``output_shape``
one longer than the natural size) becomes extra ``outputPadding``. Explicit ``pads``
go to aclnnConvolution's per-axis (begin, end) padding as given.

Pooling: 3-D MaxPool -> aclnnMaxPool3dWithArgmax, 3-D AveragePool -> aclnnAvgPool3d;
MaxPool's Indices output (2-D: aclnnMaxPool2dWithIndices; 3-D: the argmax op) as
ONNX's flat index over the whole tensor; GlobalMaxPool -> aclnnAmax; LpPool ->
aclnnLpPool (npu-sim's, CANN has none).
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_int, attr_ints, bad
from .cnn_common import _geometry, _pool_out, _spatial_rank
from .registry import register
from .tensors import DTensor, prepare


def _transpose_geometry(node: Node, sizes, kernel, st, dl):
    """(pads_begin, pads_end, output_padding, out) of a ConvTranspose node (module doc)."""
    nsp = len(kernel)
    op = attr_ints(node, "output_padding", [0] * nsp, nsp)
    out_shape = attr_ints(node, "output_shape", None)
    ap = node.attrs.get("auto_pad", "NOTSET") or "NOTSET"
    if ap not in ("NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"):
        raise bad(node, f"auto_pad {ap!r} is not one of NOTSET, VALID, SAME_UPPER, SAME_LOWER")
    natural = [s * (n - 1) + o + d * (k - 1) + 1 for n, k, s, d, o in zip(sizes, kernel, st, dl, op)]
    if out_shape is not None or ap in ("SAME_UPPER", "SAME_LOWER"):
        if out_shape is not None:
            out_shape = out_shape[-nsp:]
            if len(out_shape) != nsp:
                raise bad(node, f"output_shape {out_shape} needs {nsp} spatial values")
        else:
            out_shape = [n * s for n, s in zip(sizes, st)]
        total = [a - b for a, b in zip(natural, out_shape)]
        upper = ap == "SAME_UPPER"
        begin = [t // 2 if upper else t - t // 2 for t in total]
        end = [t - t // 2 if upper else t // 2 for t in total]
    elif ap == "VALID":
        begin, end = [0] * nsp, [0] * nsp
    else:
        pads = attr_ints(node, "pads", [0] * (2 * nsp), 2 * nsp)
        begin, end = pads[:nsp], pads[nsp:]
    if min(begin) < 0:
        raise bad(node, f"output_shape {out_shape} needs a negative leading pad {begin}; not supported")
    out = [a - b - e for a, b, e in zip(natural, begin, end)]
    return begin, [max(0, e) for e in end], [o + max(0, -e) for o, e in zip(op, end)], out


@register("ConvTranspose")
def lower_conv_transpose(ctx, node: Node, ins: list[DTensor]):
    """ConvTranspose over [N, C, *S] (1 to 3 spatial dims) -> aclnnConvolution with
    ``transposed=true``; weight [C, M/group, *k]; a bias of shape [M]."""
    x, w = ins[0], ins[1]
    b = ins[2] if len(ins) > 2 else None
    nsp = _spatial_rank(node, x, 3)
    if len(w.shape) != nsp + 2:
        raise bad(node, f"weight shape {list(w.shape)} does not match a {nsp}-D input {list(x.shape)}")
    kernel = list(w.shape[2:])
    ks = attr_ints(node, "kernel_shape", None, nsp)
    if ks is not None and ks != kernel:
        raise bad(node, f"kernel_shape {ks} does not match the weight's {kernel}")
    g = attr_int(node, "group", 1)
    st = attr_ints(node, "strides", [1] * nsp, nsp)
    dl = attr_ints(node, "dilations", [1] * nsp, nsp)
    if min(st) < 1 or min(dl) < 1:
        raise bad(node, f"strides {st} and dilations {dl} must be >= 1")
    begin, end, op, out_sp = _transpose_geometry(node, x.shape[2:], kernel, st, dl)
    out = ctx.alloc(node.outputs[0], (x.shape[0], w.shape[1] * g, *out_sp), x.dtype)
    padding = [p for i in range(nsp) for p in (begin[i], end[i])]
    ia = opsnn.aclCreateIntArray
    call = prepare(node, "aclnnConvolution", x.tensor, w.tensor, b.tensor if b else None, ia(st), ia(padding),
                   ia(dl), True, ia(op), g, out.tensor, 0)
    return [out], [call]


def _pool_geom(node: Node, x: DTensor, dilations: bool = True):
    """(kernel, strides, dilations, ONNX pads, ceil, output spatial sizes) of a pool node."""
    nsp = len(x.shape) - 2
    kernel = attr_ints(node, "kernel_shape", length=nsp)
    ceil = bool(attr_int(node, "ceil_mode", 0))
    st, dl, pads = _geometry(node, x, kernel, dilations)
    out_sp = [_pool_out(x.shape[2 + i], kernel[i], st[i], pads[i], pads[i + nsp], dl[i], ceil) for i in range(nsp)]
    return kernel, st, dl, pads, ceil, out_sp


def lower_maxpool_3d(ctx, node: Node, ins: list[DTensor]):
    """3-D MaxPool ([N, C, D, H, W]) -> aclnnMaxPool3dWithArgmax (pads in ONNX order;
    its int32 indices go to a scratch tensor unless the node asks for Indices, which
    are then widened to ONNX's int64 flat index by :func:`_onnx_indices`)."""
    x = ins[0]
    k, st, dl, pads, ceil, out_sp = _pool_geom(node, x)
    shape = (x.shape[0], x.shape[1], *out_sp)
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    want_idx = len(node.outputs) > 1 and bool(node.outputs[1])
    if want_idx and attr_int(node, "storage_order", 0):
        raise bad(node, "storage_order=1 Indices of a 3-D MaxPool are not supported")
    idx32 = ctx.alloc(f"{node.outputs[0]}__argmax_i32", shape, np.int32)
    ia = opsnn.aclCreateIntArray
    calls = [prepare(node, "aclnnMaxPool3dWithArgmax", x.tensor, ia(k), ia(st), ia(pads), ia(dl), ceil, out.tensor,
                     idx32.tensor)]
    if not want_idx:
        return [out], calls
    idx64 = ctx.alloc(f"{node.outputs[0]}__argmax_i64", shape, np.int64)
    calls.append(prepare(node, "aclnnCast", idx32.tensor, opsnn.aclDataType.ACL_INT64, idx64.tensor))
    indices, more = _onnx_indices(ctx, node, idx64, x.shape)
    return [out, indices], calls + more


def _onnx_indices(ctx, node: Node, idx: DTensor, in_shape):
    """ONNX's flat Indices: CANN's per-(n, c) index plus ``(n*C + c) * prod(spatial)``
    (one aclnnAdd of a constant [N, C, 1, ...] offset)."""
    n, c = in_shape[:2]
    per = int(np.prod(in_shape[2:], dtype=np.int64))
    offs = (np.arange(n * c, dtype=np.int64) * per).reshape((n, c) + (1,) * (len(in_shape) - 2))
    off = ctx.upload(f"{node.outputs[1]}__plane_offsets", offs)
    out = ctx.alloc(node.outputs[1], idx.shape, np.int64)
    one = opsnn.aclCreateScalar(1, opsnn.aclDataType.ACL_INT64)
    return out, [prepare(node, "aclnnAdd", idx.tensor, off.tensor, one, out.tensor)]


def lower_maxpool_indices_2d(ctx, node: Node, ins: list[DTensor]):
    """2-D MaxPool with the Indices output -> aclnnMaxPool2dWithIndices (int64, symmetric
    pads only, as CANN's) + the plane offsets. ``storage_order=1`` (column-major
    indices ``w*H + h``) pools the transposed [N, C, W, H] view into the transposed
    view of the outputs, so CANN's in-plane index is already column-major."""
    x = ins[0]
    k, st, dl, pads, ceil, out_sp = _pool_geom(node, x)
    if pads[:2] != pads[2:]:
        raise bad(node, f"asymmetric pads {pads} with the Indices output: aclnnMaxPool2dWithIndices takes "
                        "symmetric padding only")
    n, c, h, w = x.shape
    shape = (n, c, *out_sp)
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    idx = ctx.alloc(f"{node.outputs[1]}__in_plane", shape, np.int64)
    xv, ov, iv = x, out, idx
    if attr_int(node, "storage_order", 0):
        def tview(t, name):
            s = t.shape
            return ctx.view(t, f"{t.name}__{name}", (s[0], s[1], s[3], s[2]), strides=(s[1] * s[2] * s[3],
                                                                                       s[2] * s[3], 1, s[3]))
        xv, ov, iv = tview(x, "cm"), tview(out, "cm"), tview(idx, "cm")
        k, st, dl, pads = k[::-1], st[::-1], dl[::-1], pads[1::-1]
    ia = opsnn.aclCreateIntArray
    calls = [prepare(node, "aclnnMaxPool2dWithIndices", xv.tensor, ia(k), ia(st), ia(pads[:2]), ia(dl), ceil,
                     ov.tensor, iv.tensor)]
    indices, more = _onnx_indices(ctx, node, idx, x.shape)
    return [out, indices], calls + more


def lower_avgpool_3d(ctx, node: Node, ins: list[DTensor]):
    """3-D AveragePool -> aclnnAvgPool3d (pads in ONNX order; no dilations)."""
    x = ins[0]
    k, st, _, pads, ceil, out_sp = _pool_geom(node, x, dilations=False)
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], *out_sp), x.dtype)
    ia = opsnn.aclCreateIntArray
    return [out], [prepare(node, "aclnnAvgPool3d", x.tensor, ia(k), ia(st), ia(pads), ceil,
                           bool(attr_int(node, "count_include_pad", 0)), 0, out.tensor)]


@register("GlobalMaxPool")
def lower_global_maxpool(ctx, node: Node, ins: list[DTensor]):
    """GlobalMaxPool over any number of spatial dims -> aclnnAmax over axes 2.. with
    keepdim ([N, C, 1, ...]). (DESIGN.md section 9: onnx's reference reduces the wrong
    axes for inputs that are not 4-D; the operator text is followed here.)"""
    x = ins[0]
    if len(x.shape) < 3:
        raise bad(node, f"input shape {list(x.shape)} needs at least 3 dims [N, C, spatial...]")
    out = ctx.alloc(node.outputs[0], x.shape[:2] + (1,) * (len(x.shape) - 2), x.dtype)
    axes = opsnn.aclCreateIntArray(list(range(2, len(x.shape))))
    return [out], [prepare(node, "aclnnAmax", x.tensor, axes, True, out.tensor)]


@register("LpPool")
def lower_lppool(ctx, node: Node, ins: list[DTensor]):
    """LpPool over 1 to 3 spatial dims -> aclnnLpPool (npu-sim's; CANN has none)."""
    x = ins[0]
    _spatial_rank(node, x, 3)
    k, st, dl, pads, ceil, out_sp = _pool_geom(node, x)
    p = node.attrs.get("p", 2)
    out = ctx.alloc(node.outputs[0], (x.shape[0], x.shape[1], *out_sp), x.dtype)
    ia = opsnn.aclCreateIntArray
    return [out], [prepare(node, "aclnnLpPool", x.tensor, ia(k), ia(st), ia(pads), ia(dl), int(ceil), float(p),
                           out.tensor)]
