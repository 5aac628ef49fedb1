"""Lowering of the N-d pooling ops beyond :mod:`.cnn`'s 1-D/2-D MaxPool and AveragePool:

* 3-D MaxPool -> aclnnMaxPool3dWithArgmax, 3-D AveragePool -> aclnnAvgPool3d (pads in
  ONNX order, npu-sim's 6-value extension);
* MaxPool's Indices output (2-D: aclnnMaxPool2dWithIndices; 3-D: the argmax op) as
  ONNX's flat index over the whole tensor;
* GlobalMaxPool -> aclnnAmax; LpPool -> aclnnLpPool (npu-sim's, CANN has none);
  MaxUnpool -> aclnnScatter;
* what CANN's pools refuse, rewritten as GE would: AveragePool with dilations or pads
  over half the kernel as a depthwise convolution of ones and a multiply by the
  reciprocal divisor; MaxPool with such pads as an explicit -inf pad before the pool.
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_int, attr_ints, bad
from .cnn_common import _geometry, _pool_out, _spatial_rank
from .registry import register
from .tensors import DTensor, prepare, scalar


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


def _over_half(kernel, dl, pads) -> bool:
    """Whether a pad exceeds half the (dilated) kernel: CANN's pooling ops refuse it."""
    n = len(kernel)
    return any(max(pads[i], pads[i + n]) > ((kernel[i] - 1) * dl[i] + 1) // 2 for i in range(n))


def avgpool_needs_conv(node: Node, x: DTensor) -> bool:
    """True when aclnnAvgPool2d / aclnnAvgPool3d cannot take the node: dilations, or a
    pad over half the kernel."""
    k, _, dl, pads, _, _ = _pool_geom(node, x)
    return any(d != 1 for d in dl) or _over_half(k, dl, pads)


def lower_avgpool_by_conv(ctx, node: Node, ins: list[DTensor]):
    """AveragePool that CANN's average pools refuse (dilations, pads over half the
    kernel), as GE would rewrite it: the window sums as a depthwise aclnnConvolution
    with an all-ones [C, 1, *k] weight (dilations and any pads; the end pads grown
    so that ceil mode's last window fits, adding zeros), then one aclnnMul by the
    constant reciprocal divisor [1, 1, *So], computed here per axis from the geometry:
    the taps inside the input (count_include_pad=0) or inside the padded input (=1)."""
    x = ins[0]
    nsp = _spatial_rank(node, x, 3)
    k, st, dl, pads, ceil, out_sp = _pool_geom(node, x)
    n, c = x.shape[:2]
    cip = bool(attr_int(node, "count_include_pad", 0))
    ends, divisor = [], np.ones(out_sp, np.float64)
    for i in range(nsp):
        size, pb, pe = x.shape[2 + i], pads[i], pads[i + nsp]
        ends.append(max(pe, (out_sp[i] - 1) * st[i] + dl[i] * (k[i] - 1) + 1 - size - pb))
        pos = (np.arange(out_sp[i])[:, None] * st[i] - pb + np.arange(k[i])[None, :] * dl[i])
        lo, hi = (-pb, size + pe) if cip else (0, size)
        cnt = ((pos >= lo) & (pos < hi)).sum(axis=1).astype(np.float64)
        divisor = divisor * cnt.reshape([-1 if j == i else 1 for j in range(nsp)])
    w = ctx.upload(f"{node.outputs[0]}__ones", np.ones((c, 1, *k), x.dtype))
    recip = ctx.upload(f"{node.outputs[0]}__recip_divisor", (1.0 / divisor).astype(x.dtype).reshape((1, 1, *out_sp)))
    sums = ctx.alloc(f"{node.outputs[0]}__window_sums", (n, c, *out_sp), x.dtype)
    out = ctx.alloc(node.outputs[0], (n, c, *out_sp), x.dtype)
    ia = opsnn.aclCreateIntArray
    padding = [p for i in range(nsp) for p in (pads[i], ends[i])]
    return [out], [prepare(node, "aclnnConvolution", x.tensor, w.tensor, None, ia(st), ia(padding), ia(dl), False,
                           ia([0] * nsp), c, sums.tensor, 0),
                   prepare(node, "aclnnMul", sums.tensor, recip.tensor, out.tensor)]


def maxpool_needs_pad(node: Node, x: DTensor) -> bool:
    """True when a pad exceeds half the kernel (aclnnMaxPool refuses it)."""
    k, _, dl, pads, _, _ = _pool_geom(node, x)
    return _over_half(k, dl, pads)


def lower_maxpool_padded(ctx, node: Node, ins: list[DTensor]):
    """MaxPool with pads over half the kernel: an explicit aclnnConstantPadNd with -inf
    (what GE inserts as a PadV3 before the pool), then the pool with no pads.
    Ceil mode is refused when it would change the output size."""
    x = ins[0]
    nsp = len(x.shape) - 2
    k, st, dl, pads, ceil, out_sp = _pool_geom(node, x)
    padded_sp = [x.shape[2 + i] + pads[i] + pads[i + nsp] for i in range(nsp)]
    if [_pool_out(padded_sp[i], k[i], st[i], 0, 0, dl[i], ceil) for i in range(nsp)] != out_sp:
        raise bad(node, f"ceil_mode with pads {pads} over half the kernel is not supported")
    xp = ctx.alloc(f"{node.outputs[0]}__padded", x.shape[:2] + tuple(padded_sp), x.dtype)
    cann = [v for i in reversed(range(nsp)) for v in (pads[i], pads[i + nsp])]
    out = ctx.alloc(node.outputs[0], x.shape[:2] + tuple(out_sp), x.dtype)
    ia = opsnn.aclCreateIntArray
    calls = [prepare(node, "aclnnConstantPadNd", x.tensor, ia(cann), scalar(node, float("-inf"), x.dtype),
                     xp.tensor)]
    if nsp == 3:
        idx = ctx.alloc(f"{node.outputs[0]}__argmax_i32", out.shape, np.int32)
        calls.append(prepare(node, "aclnnMaxPool3dWithArgmax", xp.tensor, ia(k), ia(st), ia([0]), ia(dl), ceil,
                             out.tensor, idx.tensor))
        return [out], calls
    xv, ov, kk, ss, dd = xp, out, k, st, dl
    if nsp == 1:
        xv = ctx.view(xp, f"{xp.name}__4d", xp.shape[:2] + (1,) + xp.shape[2:])
        ov = ctx.view(out, f"{out.name}__4d", out.shape[:2] + (1,) + out.shape[2:])
        kk, ss, dd = [1] + k, [1] + st, [1] + dl
    calls.append(prepare(node, "aclnnMaxPool", xv.tensor, ia(kk), ia(ss), 0, ia([0, 0, 0, 0]), ia(dd), int(ceil),
                         ov.tensor))
    return [out], calls


@register("MaxUnpool")
def lower_maxunpool(ctx, node: Node, ins: list[DTensor]):
    """MaxUnpool: zeros of the unpooled shape (``(in-1)*stride + kernel - pads`` per axis)
    with X written at the flat Indices (ONNX's index over that whole tensor): aclnnScatter
    along the one axis of [1, numel] views; a larger ``output_shape`` zero-pads the end of
    each axis (aclnnConstantPadNd), as onnx's reference does."""
    x, idx = ins[0], ins[1]
    nsp = len(x.shape) - 2
    k = attr_ints(node, "kernel_shape", length=nsp)
    st = attr_ints(node, "strides", [1] * nsp, nsp)
    pads = attr_ints(node, "pads", [0] * (2 * nsp), 2 * nsp)
    shape = x.shape[:2] + tuple((x.shape[2 + i] - 1) * st[i] + k[i] - pads[i] - pads[i + nsp] for i in range(nsp))
    want = shape
    if len(node.inputs) > 2 and node.inputs[2]:
        c = ctx.const(node.inputs[2])
        if c is None:
            raise bad(node, "output_shape must be constant")
        want = tuple(int(v) for v in np.asarray(c).reshape(-1))
        if len(want) != len(shape) or any(w < s for w, s in zip(want, shape)):
            raise bad(node, f"output_shape {list(want)} is smaller than the unpooled shape {list(shape)}")
    total = int(np.prod(shape, dtype=np.int64))
    zeros = ctx.upload(f"{node.outputs[0]}__zeros", np.zeros((1, total), x.dtype))
    name = node.outputs[0] if want == shape else f"{node.outputs[0]}__unpooled"
    out = ctx.alloc(name, shape, x.dtype)
    cnt = int(np.prod(x.shape, dtype=np.int64))
    x2 = ctx.view(x, f"{node.outputs[0]}__src", (1, cnt))
    i2 = ctx.view(idx, f"{node.outputs[0]}__idx", (1, cnt))
    o2 = ctx.view(out, f"{node.outputs[0]}__flat", (1, total))
    calls = [prepare(node, "aclnnScatter", zeros.tensor, 1, i2.tensor, x2.tensor, 0, o2.tensor)]
    if want == shape:
        return [out], calls
    # output_shape larger than the default: the indices address the default grid, the rest is zero-padded at the end
    y = ctx.alloc(node.outputs[0], want, x.dtype)
    cann = [q for w, s in reversed(list(zip(want, shape))) for q in (0, w - s)]
    calls.append(prepare(node, "aclnnConstantPadNd", out.tensor, opsnn.aclCreateIntArray(cann),
                         scalar(node, 0, x.dtype), y.tensor))
    return [y], calls
