"""Lowering of the shape and index ops onto the ``opsnn/transform`` family (Pad and
Resize: :mod:`.pad`).

=================  ====================================================================
ONNX op            aclnn prepare (phase 1 runs here, once)
=================  ====================================================================
Split              aclnnSplitWithSize (sizes from the ``split`` input / attribute, or
                   ``num_outputs``, or equal parts)
Tile               aclnnRepeat (repeats constant)
DepthToSpace       aclnnDepthToSpace (DCR / CRD); SpaceToDepth: aclnnSpaceToDepth
Trilu              aclnnTriu / aclnnTril (k constant)
Range              aclnnArange (start, limit, delta constant)
OneHot             aclnnOneHot (depth constant; float indices cast to INT64 first; negative
                   ones mapped by aclnnAdds + aclnnClamp + aclnnEmbedding; on / off are
                   views of ``values``)
CumSum             aclnnCumsumV2 (axis constant; exclusive, reverse)
GatherElements     aclnnGather; GatherND: aclnnGatherNd (batch_dims > 0: batch positions
                   joined onto the indices by aclnnCat)
ScatterElements    aclnnScatter (reduction none/add/mul/max/min); ScatterND:
                   aclnnScatterNd (reduction none/add/mul/max/min; the reduce is a
                   simulator extension of aclnnScatterNd)
TopK               aclnnTopk (K constant)
Einsum             aclnnEinsum (any equation)
ArgMax / ArgMin    aclnnArgMax / aclnnArgMin (select_last_index 1: reversed by
                   aclnnGather, index mapped back by aclnnEmbedding)
=================  ====================================================================
"""
from __future__ import annotations

import numpy as np

import opsnn
from opsnn.transform.einsum.infershape import parse as parse_einsum

from ..graph import Node
from .attrs import attr_int, attr_ints, axis_index, bad
from .registry import register
from .tensors import alpha_one, cast_to, const, prepare, scalar, strided_view

def const_ints(ctx, node: Node, i: int, what: str):
    """The constant input ``i`` as a list of ints; None when omitted."""
    name = node.inputs[i] if len(node.inputs) > i else ""
    if not name:
        return None
    v = const(ctx, name)
    if v is None:
        raise bad(node, f"runtime {what} is not supported (it must be constant)")
    return [int(a) for a in np.asarray(v).reshape(-1)]


def attr_str(node: Node, name: str, default: str) -> str:
    v = node.attrs.get(name, default)
    return v.decode() if isinstance(v, bytes) else str(v)


@register("Split", opset=True)
def lower_split(ctx, node: Node, ins, opset: int = 18):
    x = ins[0]
    rank = len(x.shape)
    axis = axis_index(node, attr_int(node, "axis", 0), rank)
    n = x.shape[axis]
    k = len(node.outputs)
    sizes = attr_ints(node, "split", None) if opset < 13 else const_ints(ctx, node, 1, "split")
    if sizes is None:
        parts = attr_int(node, "num_outputs", k)
        step = -(-n // parts)
        sizes = [min(step, n - i * step) for i in range(parts)]
    if len(sizes) != k or sum(sizes) != n or min(sizes) < 0:
        raise bad(node, f"split sizes {sizes} do not cut {n} into {k} outputs")
    outs = [ctx.alloc(name, x.shape[:axis] + (s,) + x.shape[axis + 1:], x.dtype)
            for name, s in zip(node.outputs, sizes)]
    tl = opsnn.aclCreateTensorList([o.tensor for o in outs])
    return outs, [prepare(node, "aclnnSplitWithSize", x.tensor, opsnn.aclCreateIntArray(sizes), axis, tl)]


@register("Tile")
def lower_tile(ctx, node: Node, ins):
    x = ins[0]
    reps = const_ints(ctx, node, 1, "repeats")
    if reps is None or len(reps) != len(x.shape):
        raise bad(node, f"repeats {reps} must have one entry per axis ({len(x.shape)})")
    out = ctx.alloc(node.outputs[0], tuple(d * r for d, r in zip(x.shape, reps)), x.dtype)
    return [out], [prepare(node, "aclnnRepeat", x.tensor, opsnn.aclCreateIntArray(reps), out.tensor)]


@register("DepthToSpace", "SpaceToDepth")
def lower_depth_space(ctx, node: Node, ins):
    x = ins[0]
    if len(x.shape) != 4:
        raise bad(node, f"input must be 4-D NCHW, got {list(x.shape)}")
    b = attr_int(node, "blocksize")
    n, c, h, w = x.shape
    if node.op_type == "DepthToSpace":
        out = ctx.alloc(node.outputs[0], (n, c // (b * b), h * b, w * b), x.dtype)
        return [out], [prepare(node, "aclnnDepthToSpace", x.tensor, b, attr_str(node, "mode", "DCR"), out.tensor)]
    out = ctx.alloc(node.outputs[0], (n, c * b * b, h // b, w // b), x.dtype)
    return [out], [prepare(node, "aclnnSpaceToDepth", x.tensor, b, attr_str(node, "mode", "DCR"), out.tensor)]


@register("Trilu")
def lower_trilu(ctx, node: Node, ins):
    x = ins[0]
    k = const_ints(ctx, node, 1, "k")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    op = "aclnnTriu" if attr_int(node, "upper", 1) else "aclnnTril"
    return [out], [prepare(node, op, x.tensor, k[0] if k else 0, out.tensor)]


@register("Range")
def lower_range(ctx, node: Node, ins):
    vals = []
    for i in range(3):
        v = const(ctx, node.inputs[i])
        if v is None:
            raise bad(node, "runtime start/limit/delta are not supported (they must be constant)")
        vals.append(np.asarray(v).reshape(-1)[0])
    dt = ins[0].dtype
    start, limit, delta = vals
    n = max(int(np.ceil((float(limit) - float(start)) / float(delta))), 0)
    out = ctx.alloc(node.outputs[0], (n,), dt)
    return [out], [prepare(node, "aclnnArange", *(scalar(node, v, dt) for v in vals), out.tensor)]


def _onnx_one_hot_index(ctx, node: Node, idx, depth: int):
    """ONNX counts an index in [-depth, 0) from the end; aclnnOneHot encodes any
    index outside [0, depth) as all ``off``. Map i -> i + depth for those: t = i +
    depth + 1 (aclnnAdds), clamped to [0, 2 * depth + 1] (aclnnClamp), looked up in a
    constant [2 * depth + 2, 1] table (aclnnEmbedding) that gives the ONNX index, or
    -1 (all off) for an index outside [-depth, depth)."""
    base = node.outputs[0]
    i64 = np.int64
    shifted = ctx.alloc(base + "__shift", idx.shape, idx.dtype)
    clamped = ctx.alloc(base + "__clamp", idx.shape, idx.dtype)
    j = np.arange(2 * depth + 2) - 1 - depth
    table = np.where((j >= -depth) & (j < depth), np.where(j < 0, j + depth, j), -1).astype(i64)
    tab = ctx.upload(base + "__index_table", table.reshape(-1, 1))
    emb = ctx.alloc(base + "__onnx_index", tuple(idx.shape) + (1,), i64)
    calls = [prepare(node, "aclnnAdds", idx.tensor, scalar(node, depth + 1, i64), alpha_one(i64), shifted.tensor),
             prepare(node, "aclnnClamp", shifted.tensor, scalar(node, 0, i64), scalar(node, 2 * depth + 1, i64),
                     clamped.tensor),
             prepare(node, "aclnnEmbedding", tab.tensor, clamped.tensor, emb.tensor)]
    return ctx.view(emb, base + "__index", idx.shape), calls


@register("OneHot")
def lower_one_hot(ctx, node: Node, ins):
    idx, _, values = ins
    depth = const(ctx, node.inputs[1])
    if depth is None:
        raise bad(node, "runtime depth is not supported (it must be constant)")
    depth = int(np.asarray(depth).reshape(-1)[0])
    calls = []
    if np.dtype(idx.dtype) not in (np.dtype(np.int32), np.dtype(np.int64), np.dtype(np.uint8)):
        idx, c = cast_to(ctx, node, idx, np.int64, node.outputs[0] + "__idx")
        calls.append(c)
    if np.dtype(idx.dtype).kind == "i" and depth > 0 and idx.shape and int(np.prod(idx.shape)):
        idx, c = _onnx_one_hot_index(ctx, node, idx, depth)
        calls += c
    rank = len(idx.shape)
    axis = attr_int(node, "axis", -1)
    if not -rank - 1 <= axis <= rank:
        raise bad(node, f"axis {axis} is out of range for a {rank + 1}-D output")
    a = axis % (rank + 1)
    off = strided_view(values, node.outputs[0] + "__off", (1,), (1,), 0)
    on = strided_view(values, node.outputs[0] + "__on", (1,), (1,), 1)
    shape = idx.shape[:a] + (depth,) + idx.shape[a:]
    out = ctx.alloc(node.outputs[0], shape, values.dtype)
    calls.append(prepare(node, "aclnnOneHot", idx.tensor, depth, on.tensor, off.tensor, a, out.tensor))
    return [out], calls


@register("CumSum")
def lower_cumsum(ctx, node: Node, ins):
    x = ins[0]
    ax = const_ints(ctx, node, 1, "axis")
    axis = axis_index(node, ax[0], len(x.shape))
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, "aclnnCumsumV2", x.tensor, axis, bool(attr_int(node, "exclusive", 0)),
                           bool(attr_int(node, "reverse", 0)), out.tensor)]


@register("GatherElements")
def lower_gather_elements(ctx, node: Node, ins):
    x, idx = ins
    axis = axis_index(node, attr_int(node, "axis", 0), len(x.shape))
    out = ctx.alloc(node.outputs[0], idx.shape, x.dtype)
    return [out], [prepare(node, "aclnnGather", x.tensor, axis, idx.tensor, out.tensor)]


@register("GatherND")
def lower_gather_nd(ctx, node: Node, ins):
    """aclnnGatherNd has no batch dims: for batch_dims = b > 0 each index tuple is
    prefixed with its own batch position (a constant tensor joined on by aclnnCat)."""
    x, idx = ins
    b = attr_int(node, "batch_dims", 0)
    calls = []
    if b:
        if not 0 < b < len(idx.shape) or b >= len(x.shape):
            raise bad(node, f"batch_dims {b} out of range for indices {list(idx.shape)} and data {list(x.shape)}")
        lead = tuple(idx.shape[:-1])
        pos = np.stack(np.indices(lead)[:b], -1).astype(idx.dtype)
        bpos = ctx.upload(node.outputs[0] + "__batch_pos", pos)
        full = ctx.alloc(node.outputs[0] + "__indices", lead + (idx.shape[-1] + b,), idx.dtype)
        calls.append(prepare(node, "aclnnCat", opsnn.aclCreateTensorList([bpos.tensor, idx.tensor]), -1,
                             full.tensor))
        idx = full
    k = idx.shape[-1]
    out = ctx.alloc(node.outputs[0], tuple(idx.shape[:-1]) + tuple(x.shape[k:]), x.dtype)
    calls.append(prepare(node, "aclnnGatherNd", x.tensor, idx.tensor, True, out.tensor))
    return [out], calls


_REDUCE = {"none": 0, "add": 1, "mul": 2, "max": 3, "min": 4}


@register("ScatterElements", "Scatter")
def lower_scatter_elements(ctx, node: Node, ins):
    x, idx, upd = ins
    axis = axis_index(node, attr_int(node, "axis", 0), len(x.shape))
    red = attr_str(node, "reduction", "none")
    if red not in _REDUCE:
        raise bad(node, f"reduction {red!r} is not supported")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, "aclnnScatter", x.tensor, axis, idx.tensor, upd.tensor, _REDUCE[red], out.tensor)]


@register("ScatterND")
def lower_scatter_nd(ctx, node: Node, ins):
    x, idx, upd = ins
    red = attr_str(node, "reduction", "none")
    if red not in _REDUCE:
        raise bad(node, f"reduction {red!r} is not supported")
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, "aclnnScatterNd", x.tensor, idx.tensor, upd.tensor, out.tensor, _REDUCE[red])]


@register("TopK", opset=True)
def lower_topk(ctx, node: Node, ins, opset: int = 11):
    x = ins[0]
    k = attr_int(node, "k") if opset < 10 else const_ints(ctx, node, 1, "K")[0]
    axis = axis_index(node, attr_int(node, "axis", -1), len(x.shape))
    shape = x.shape[:axis] + (k,) + x.shape[axis + 1:]
    vals = ctx.alloc(node.outputs[0], shape, x.dtype)
    idx = ctx.alloc(node.outputs[1] if len(node.outputs) > 1 else node.outputs[0] + "__idx", shape, np.int64)
    return [vals, idx], [prepare(node, "aclnnTopk", x.tensor, k, axis, bool(attr_int(node, "largest", 1)),
                                 bool(attr_int(node, "sorted", 1)), vals.tensor, idx.tensor)]


@register("ArgMax", "ArgMin")
def lower_arg(ctx, node: Node, ins):
    """aclnnArgMax / aclnnArgMin give the first index of the extreme. For
    select_last_index = 1 the input is reversed along ``axis`` first (aclnnGather by a
    constant reversed index) and the result mapped back, n - 1 - i, by an
    aclnnEmbedding lookup in a constant [n, 1] table."""
    x = ins[0]
    axis = axis_index(node, attr_int(node, "axis", 0), len(x.shape))
    keep = bool(attr_int(node, "keepdims", 1))
    shape = x.shape[:axis] + ((1,) if keep else ()) + x.shape[axis + 1:]
    base = node.outputs[0]
    if not attr_int(node, "select_last_index", 0):
        out = ctx.alloc(base, shape, np.int64)
        return [out], [prepare(node, f"aclnn{node.op_type}", x.tensor, axis, keep, out.tensor)]
    n = x.shape[axis]
    rev = np.arange(n - 1, -1, -1, dtype=np.int64).reshape([n if a == axis else 1 for a in range(len(x.shape))])
    ridx = ctx.upload(base + "__rev_index", np.ascontiguousarray(np.broadcast_to(rev, x.shape)))
    xr = ctx.alloc(base + "__reversed", x.shape, x.dtype)
    first = ctx.alloc(base + "__first", shape, np.int64)
    table = ctx.upload(base + "__last_of", np.arange(n - 1, -1, -1, dtype=np.int64).reshape(n, 1))
    emb = ctx.alloc(base + "__emb", tuple(shape) + (1,), np.int64)
    calls = [prepare(node, "aclnnGather", x.tensor, axis, ridx.tensor, xr.tensor),
             prepare(node, f"aclnn{node.op_type}", xr.tensor, axis, keep, first.tensor),
             prepare(node, "aclnnEmbedding", table.tensor, first.tensor, emb.tensor)]
    return [ctx.view(emb, base, shape)], calls


@register("Einsum")
def lower_einsum(ctx, node: Node, ins):
    xs = [t for t in ins if t is not None]
    eq = attr_str(node, "equation", "")
    try:
        _, out_term, sizes = parse_einsum(eq, [t.shape for t in xs])
    except ValueError as e:
        raise bad(node, f"equation {eq!r}: {e}") from None
    out = ctx.alloc(node.outputs[0], tuple(sizes[c] for c in out_term), xs[0].dtype)
    return [out], [prepare(node, "aclnnEinsum", opsnn.aclCreateTensorList([t.tensor for t in xs]), eq, out.tensor)]
