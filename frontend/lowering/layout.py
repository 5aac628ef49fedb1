"""Lowering of the layout ops: Transpose, Concat, Gather and Slice.

==========  ==========================================================================
ONNX op     aclnn prepare(s) prepared (phase 1 runs here, once)
==========  ==========================================================================
Transpose   aclnnPermute (the identity permutation is a view)
Concat      aclnnCat (one input: an aclnnCast copy)
Gather      on ``data`` viewed as [D_axis, rest] (axis 0), with aclnnPermute
            before/after for another axis: constant indices through aclnnEmbedding
            (negative ones normalised at prepare time), runtime indices through
            aclnnGatherV2, which takes negative ones (same row-gather cost)
Slice       a strided view of the input, copied by an aclnnCast to the same dtype
            (the aclnn layer's Contiguous copy); negative steps gather reversed indices
==========  ==========================================================================
"""
from __future__ import annotations

import numpy as np

import opsnn
from opsnn.base.tensor import contiguous_strides

from ..errors import UnsupportedModelError
from ..graph import Node
from .attrs import attr_int, attr_ints, axis_index, bad
from .registry import register
from .tensors import DTensor, cast_to, const, node_acl_dtype, numel, prepare, strided_view


def permute(ctx, node: Node, x: DTensor, perm, name: str) -> tuple[DTensor, list]:
    perm = [int(p) for p in perm]
    if perm == list(range(len(perm))):
        return ctx.view(x, name, x.shape), []
    out = ctx.alloc(name, tuple(x.shape[p] for p in perm), x.dtype)
    return out, [prepare(node, "aclnnPermute", x.tensor, opsnn.aclCreateIntArray(perm), out.tensor)]


@register("Transpose")
def lower_transpose(ctx, node: Node, ins):
    x = ins[0]
    rank = len(x.shape)
    perm = attr_ints(node, "perm", None)
    if perm is None:
        perm = list(range(rank))[::-1]
    elif sorted(p % max(rank, 1) if -rank <= p < rank else p for p in perm) != list(range(rank)):
        raise bad(node, f"perm {perm} is not a permutation of the {rank} axes")
    else:
        perm = [p % max(rank, 1) for p in perm]
    out, calls = permute(ctx, node, x, perm, node.outputs[0])
    return [out], calls


@register("Concat")
def lower_concat(ctx, node: Node, ins):
    xs = [t for t in ins if t is not None]
    if not xs:
        raise bad(node, "has no inputs")
    rank = len(xs[0].shape)
    axis = axis_index(node, attr_int(node, "axis"), rank)
    for t in xs[1:]:
        if len(t.shape) != rank or any(a != b for i, (a, b) in enumerate(zip(t.shape, xs[0].shape)) if i != axis):
            raise bad(node, f"input shapes {[list(t.shape) for t in xs]} differ outside axis {axis}")
    shape = list(xs[0].shape)
    shape[axis] = sum(t.shape[axis] for t in xs)
    out = ctx.alloc(node.outputs[0], shape, xs[0].dtype)
    if len(xs) == 1:
        return [out], [prepare(node, "aclnnCast", xs[0].tensor, node_acl_dtype(node, xs[0].dtype), out.tensor)]
    make_list = getattr(opsnn, "aclCreateTensorList", None)
    tl = make_list([t.tensor for t in xs]) if make_list else [t.tensor for t in xs]
    return [out], [prepare(node, "aclnnCat", tl, axis, out.tensor)]


@register("Gather")
def lower_gather(ctx, node: Node, ins):
    data, idx = ins
    rank = len(data.shape)
    axis = axis_index(node, attr_int(node, "axis", 0), rank)
    calls: list = []
    ic = const(ctx, node.inputs[1])
    if ic is not None and ((ic < -data.shape[axis]) | (ic >= data.shape[axis])).any():
        raise bad(node, f"constant indices {np.asarray(ic).reshape(-1)[:8].tolist()} leave the range "
                        f"[-{data.shape[axis]}, {data.shape[axis]}) of axis {axis}")
    if ic is not None and (ic < 0).any():
        idx = ctx.upload(node.outputs[0] + "__indices", np.where(ic < 0, ic + data.shape[axis], ic).astype(ic.dtype))
    base = node.outputs[0]
    if axis != 0:
        perm = [axis] + [i for i in range(rank) if i != axis]
        data, c = permute(ctx, node, data, perm, base + "__data_t")
        calls += c
    rest = data.shape[1:]
    weight = ctx.view(data, base + "__weight", (data.shape[0], numel(rest)))
    idx_shape = idx.shape
    idx_v = idx if idx_shape else ctx.view(idx, base + "__idx1", (1,))
    emb_shape = tuple(idx_v.shape) + (numel(rest),)
    emb = ctx.alloc(base + ("__emb" if axis else ""), emb_shape, data.dtype)
    if ic is None:   # runtime indices may be negative: aclnnGatherV2 takes them (aclnnEmbedding does not)
        calls.append(prepare(node, "aclnnGatherV2", weight.tensor, 0, idx_v.tensor, emb.tensor))
    else:
        calls.append(prepare(node, "aclnnEmbedding", weight.tensor, idx_v.tensor, emb.tensor))
    if axis == 0:
        return [ctx.view(emb, base, tuple(idx_shape) + tuple(rest))], calls
    # emb holds [idx..., pre..., post...] (pre = the ``axis`` data dims before it): move idx after pre
    k = len(idx_shape)
    e_full = ctx.view(emb, base + "__emb_full", tuple(idx_shape) + tuple(rest))
    perm = list(range(k, k + axis)) + list(range(k)) + list(range(k + axis, k + rank - 1))
    out, c = permute(ctx, node, e_full, perm, base)
    return [out], calls + c


def _slice_params(ctx, node: Node, shape):
    rank = len(shape)
    if "starts" in node.attrs:  # opset < 10
        starts, ends = attr_ints(node, "starts"), attr_ints(node, "ends")
        axes = attr_ints(node, "axes", list(range(len(starts))))
        steps = [1] * len(starts)
    else:
        vals = []
        for i in range(1, 5):
            name = node.inputs[i] if len(node.inputs) > i else ""
            v = const(ctx, name) if name else None
            if name and v is None:
                raise UnsupportedModelError(f"Slice node {node.name!r}: runtime starts/ends/axes/steps are not "
                                            "supported (they must be constant)")
            vals.append(None if v is None else [int(a) for a in np.asarray(v).reshape(-1)])
        starts, ends, axes, steps = vals
        if starts is None or ends is None:
            raise bad(node, "starts and ends are required")
        axes = list(range(len(starts))) if axes is None else axes
        steps = [1] * len(starts) if steps is None else steps
    if not len(starts) == len(ends) == len(axes) == len(steps):
        raise bad(node, f"starts {starts}, ends {ends}, axes {axes} and steps {steps} differ in length")
    if 0 in steps:
        raise bad(node, f"steps {steps} must not be 0")
    norm = [axis_index(node, int(a), rank, "axes value") for a in axes]
    if len(set(norm)) != len(norm):
        raise bad(node, f"axes {axes} repeat an axis")
    out = [(0, d, 1) for d in shape]
    for s, e, a, st in zip(starts, ends, norm, steps):
        rng = slice(int(s), int(e), int(st)).indices(shape[a])
        out[a] = rng
    return out


@register("Slice")
def lower_slice(ctx, node: Node, ins):
    x = ins[0]
    params = _slice_params(ctx, node, x.shape)
    if any(st < 0 for _, _, st in params):
        return _slice_with_flip(ctx, node, x, params)
    base = contiguous_strides(x.shape)
    shape = tuple(len(range(s, e, st)) for s, e, st in params)
    offset = sum(s * b for (s, _, _), b in zip(params, base)) if all(shape) else 0
    strides = tuple(b * st for (_, _, st), b in zip(params, base))
    if shape == x.shape:
        return [ctx.view(x, node.outputs[0], x.shape)], []
    v = strided_view(x, node.outputs[0] + "__view", shape, strides, offset)
    out, call = cast_to(ctx, node, v, v.dtype, node.outputs[0])
    return [out], [call]


def _slice_with_flip(ctx, node: Node, x, params):
    """Negative steps: gather the selected indices (reversed order) axis by axis."""
    calls: list = []
    cur = x
    for a, (s, e, st) in enumerate(params):
        idx = np.arange(s, e, st, dtype=np.int64)
        if st == 1 and s == 0 and e == x.shape[a]:
            continue
        idx_t = ctx.upload(f"{node.outputs[0]}__idx{a}", idx)
        sub = Node("Gather", node.name, [cur.name, idx_t.name], [f"{node.outputs[0]}__ax{a}"], {"axis": a})
        (cur,), c = lower_gather(ctx, sub, [cur, idx_t])
        calls += c
    return [ctx.view(cur, node.outputs[0], cur.shape)], calls


