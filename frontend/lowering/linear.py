"""Lowering of the matrix, normalisation, reduction and attention ops.

===================  =========================================================================
ONNX op              aclnn prepare(s) prepared (phase 1 runs here, once)
===================  =========================================================================
Gemm                 aclnnAddmm (transA/transB as transposed views; no C: a zero bias, beta 0)
MatMul               aclnnMatmul with numpy semantics (1-D operands as 2-D views; an N-D
                     activation times a 2-D weight folds its rows into one GEMM)
Softmax              aclnnSoftmax (opset < 13: over dim 1 of the 2-D view)
LayerNormalization   aclnnLayerNorm (normalizedShape = X.shape[axis:]); Mean/InvStdDev
                     outputs come from meanOut/rstdOut (+ aclnnCast to float32 for 16-bit X)
ReduceSum/Mean       aclnnReduceSum / aclnnMean (axes from the input or the attribute)
FlashAttentionScore  the node frontend.fusion makes from the attention subgraph:
                     aclnnFlashAttentionScore (BSND or BNSD, boolean mask)
===================  =========================================================================
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..errors import UnsupportedModelError
from ..graph import Node
from .attrs import attr_float, attr_int, axis_index, bad, reduce_plan
from .registry import register
from .tensors import DTensor, broadcast_shape, cast_to, node_acl_dtype, numel, prepare


def _transposed_view(ctx, t: DTensor, name: str) -> DTensor:
    r, c = t.shape
    return ctx.view(t, name, (c, r), strides=(1, c))


@register("Gemm")
def lower_gemm(ctx, node, ins):
    a, b = ins[0], ins[1]
    c = ins[2] if len(ins) > 2 and ins[2] is not None else None
    if len(a.shape) != 2 or len(b.shape) != 2:
        raise bad(node, f"A {list(a.shape)} and B {list(b.shape)} must be 2-D")
    if attr_int(node, "transA", 0):
        a = _transposed_view(ctx, a, node.outputs[0] + "__A_T")
    if attr_int(node, "transB", 0):
        b = _transposed_view(ctx, b, node.outputs[0] + "__B_T")
    m, n = a.shape[0], b.shape[1]
    out = ctx.alloc(node.outputs[0], (m, n), a.dtype)
    alpha, beta = attr_float(node, "alpha", 1.0), attr_float(node, "beta", 1.0)
    if c is None:
        c = ctx.upload(node.outputs[0] + "__zero_bias", np.zeros((n,), a.dtype))
        beta = 0.0
    fl = opsnn.aclDataType.ACL_FLOAT
    call = prepare(node, "aclnnAddmm", c.tensor, a.tensor, b.tensor, opsnn.aclCreateScalar(beta, fl),
                 opsnn.aclCreateScalar(alpha, fl), out.tensor, 0)
    return [out], [call]


@register("Softmax", opset=True)
def lower_softmax(ctx, node, ins, opset: int):
    x = ins[0]
    rank = len(x.shape)
    if opset < 13:
        axis = axis_index(node, attr_int(node, "axis", 1), rank)
        rows = int(np.prod(x.shape[:axis], dtype=np.int64))
        cols = int(np.prod(x.shape[axis:], dtype=np.int64))
        x2 = ctx.view(x, node.outputs[0] + "__x_2d", (rows, cols))
        out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
        o2 = ctx.view(out, out.name + "__2d", (rows, cols))
        return [out], [prepare(node, "aclnnSoftmax", x2.tensor, 1, o2.tensor)]
    axis = attr_int(node, "axis", -1)
    axis_index(node, axis, rank)
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, "aclnnSoftmax", x.tensor, axis, out.tensor)]


@register("LayerNormalization")
def lower_layer_norm(ctx, node: Node, ins):
    x, scale = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 and ins[2] is not None else None
    rank = len(x.shape)
    axis = attr_int(node, "axis", -1)
    if not -rank <= axis < rank:
        raise UnsupportedModelError(f"LayerNormalization node {node.name!r}: axis {axis} out of range")
    axis %= rank
    norm_shape = list(x.shape[axis:])
    stat_shape = tuple(x.shape[:axis]) + (1,) * (rank - axis)
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    want = [len(node.outputs) > i and bool(node.outputs[i]) for i in (1, 2)]
    stash = np.float32  # stash_type 1 (the default): statistics in float32
    stats, post = [], []
    for i, w in enumerate(want):
        if not w:
            stats.append(None)
            continue
        name = node.outputs[i + 1]
        if x.dtype == np.float32:
            t = ctx.alloc(name, stat_shape, x.dtype)
            stats.append(t)
        else:
            t = ctx.alloc(name + "__raw", stat_shape, x.dtype)
            stats.append(t)
            post.append((t, name))
    call = prepare(node, "aclnnLayerNorm", x.tensor, opsnn.aclCreateIntArray(norm_shape), scale.tensor,
                 bias.tensor if bias else None, attr_float(node, "epsilon", 1e-5), out.tensor,
                 stats[0].tensor if stats[0] else None, stats[1].tensor if stats[1] else None)
    calls = [call]
    outs = [out]
    final = {}
    for t, name in post:
        c, cc = cast_to(ctx, node, t, stash, name)
        final[name] = c
        calls.append(cc)
    for i, w in enumerate(want):
        if w:
            name = node.outputs[i + 1]
            outs.append(final.get(name, stats[i]))
    return outs, calls


@register("ReduceSum", "ReduceMean")
def lower_reduce(ctx, node: Node, ins):
    """ReduceSum (aclnnReduceSum) and ReduceMean (aclnnMean)."""
    x = ins[0]
    plan = reduce_plan(ctx, node, x)
    if plan is None:
        return [ctx.view(x, node.outputs[0], x.shape)], []
    axes, keep, shape = plan
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    aclnn = "aclnnReduceSum" if node.op_type == "ReduceSum" else "aclnnMean"
    return [out], [prepare(node, aclnn, x.tensor, opsnn.aclCreateIntArray(axes), keep, node_acl_dtype(node, x.dtype),
                         out.tensor)]


@register("MatMul")
def lower_matmul(ctx, node: Node, ins):
    """MatMul with numpy semantics, 1-D operands included (promoted to 2-D views); an
    N-D activation times a 2-D weight runs as one 2-D GEMM over the folded rows."""
    a, b = ins
    squeeze = []
    if len(a.shape) == 1:
        a = ctx.view(a, a.name + "__row", (1, a.shape[0]))
        squeeze.append(-2)
    if len(b.shape) == 1:
        b = ctx.view(b, b.name + "__col", (b.shape[0], 1))
        squeeze.append(-1)
    shape = broadcast_shape(node, a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1])
    name = node.outputs[0] + ("__2d" if squeeze else "")
    out = ctx.alloc(name, shape, a.dtype)
    if len(a.shape) > 2 and len(b.shape) == 2:
        # [..., M, K] @ [K, N]: fold the batch dims into M (one GEMM, as torch does)
        rows = numel(a.shape[:-1])
        a2 = ctx.view(a, a.name + "__rows", (rows, a.shape[-1]))
        o2 = ctx.view(out, name + "__rows", (rows, b.shape[-1]))
        call = prepare(node, "aclnnMatmul", a2.tensor, b.tensor, o2.tensor, 0)
    else:
        call = prepare(node, "aclnnMatmul", a.tensor, b.tensor, out.tensor, 0)
    if squeeze:
        final = tuple(d for i, d in enumerate(shape) if i - len(shape) not in squeeze)
        out = ctx.view(out, node.outputs[0], final)
    return [out], [call]


@register("FlashAttentionScore")
def lower_flash_attention(ctx, node: Node, ins):
    """The ``FlashAttentionScore`` node :mod:`frontend.fusion` makes: one
    aclnnFlashAttentionScore call (softmaxMax/softmaxSum go to internal buffers)."""
    q, k, v = ins[:3]
    mask = ins[3] if len(ins) > 3 and ins[3] is not None else None
    layout = node.attrs.get("input_layout")
    if layout not in ("BSND", "BNSD"):
        raise bad(node, f"input_layout {layout!r} is not BSND or BNSD")
    heads = attr_int(node, "head_num")
    if layout == "BSND":
        b, s_q, n, _ = q.shape
        out_shape = (b, s_q, n, v.shape[3])
    else:
        b, n, s_q, _ = q.shape
        out_shape = (b, n, s_q, v.shape[3])
    out = ctx.alloc(node.outputs[0], out_shape, q.dtype)
    smax = ctx.alloc(node.outputs[0] + "__softmax_max", (b, n, s_q, 8), np.float32)
    ssum = ctx.alloc(node.outputs[0] + "__softmax_sum", (b, n, s_q, 8), np.float32)
    call = prepare(node, "aclnnFlashAttentionScore", q.tensor, k.tensor, v.tensor, None, None, None,
                 mask.tensor if mask is not None else None, None, attr_float(node, "scale", 1.0), 1.0, 2147483647,
                 2147483647, heads, layout, 0, 0, smax.tensor, ssum.tensor, None, out.tensor)
    return [out], [call]


