"""Lowering of the graph-mode fused nodes (:mod:`frontend.passes`).

============================  =================================================================
node                          aclnn prepare
============================  =================================================================
FusedConv                     aclnnFusedConvolution: Conv with BatchNorm folded and/or a FixPipe
                              activation (``attrs["activation"]``), members ``attrs["fused"]``;
                              ``attrs["residual"]``: input 3 added before the activation
FusedMatMul                   aclnnFusedMatmul: MatMul/Gemm + bias (BiasTable) + FixPipe
                              activation; an N-D A runs as one GEMM over its folded rows
FusedElementwise              aclnnFusedElementwise over the chain ``attrs["steps"]``; if the
                              kernel refuses it (e.g. an integer dtype) the members
                              (``attrs["members"]``) are lowered one by one instead
FusedAddRmsNorm               aclnnAddRmsNorm (outputs: the norm, then the Add's sum as xOut);
                              members as the fallback
FusedSwiGlu                   aclnnSwiGlu(x, dim); members as the fallback
FusedRotaryPosEmb             x copied to the output (aclnnCast), then aclnnApplyRotaryPosEmb in
                              place on its [B, S, N, D] view, cos/sin viewed as [b, S, 1, D]
============================  =================================================================
"""
from __future__ import annotations

import numpy as np

from ..errors import UnsupportedModelError
from ..graph import Node
from .cnn import lower_conv
from .registry import register
from .tensors import DTensor, numel, prepare


@register("FusedConv")
def lower_fused_conv(ctx, node: Node, ins: list[DTensor]):
    a = node.attrs
    fused = (str(a.get("activation", "none")), float(a.get("activation_alpha", 0.0)),
             float(a.get("activation_beta", 0.0)), tuple(a.get("fused", ("Conv",))))
    if a.get("residual"):
        return lower_conv(ctx, node, ins[:3], fused=fused, residual=ins[3])
    return lower_conv(ctx, node, ins, fused=fused)


def _act(node: Node) -> tuple:
    a = node.attrs
    return (str(a.get("activation", "none")), float(a.get("activation_alpha", 0.0)),
            float(a.get("activation_beta", 0.0)), tuple(a.get("fused", (node.op_type,))))


@register("FusedMatMul")
def lower_fused_matmul(ctx, node: Node, ins: list[DTensor]):
    a, w = ins[0], ins[1]
    bias = ins[2] if len(ins) > 2 else None
    if node.attrs.get("transB"):
        r, c = w.shape
        w = ctx.view(w, node.outputs[0] + "__B_T", (c, r), strides=(1, c))
    shape = a.shape[:-1] + (w.shape[1],)
    out = ctx.alloc(node.outputs[0], shape, a.dtype)
    a2, o2 = a, out
    if len(a.shape) > 2:   # [..., M, K] @ [K, N] as one GEMM over the folded rows (as lower_matmul)
        rows = numel(a.shape[:-1])
        a2 = ctx.view(a, a.name + "__rows", (rows, a.shape[-1]))
        o2 = ctx.view(out, node.outputs[0] + "__rows", (rows, w.shape[1]))
    call = prepare(node, "aclnnFusedMatmul", a2.tensor, w.tensor, bias.tensor if bias is not None else None,
                   *_act(node), o2.tensor, 0)
    return [out], [call]


@register("FusedElementwise", opset=True)
def lower_fused_elementwise(ctx, node: Node, ins: list[DTensor], opset: int):
    import numpy as np
    from .dispatch import lower_node
    steps = node.attrs["steps"]
    out_dtype = _result_dtype(ins, steps)
    if out_dtype is not None and all(t is not None and t.dtype.kind == "f" for t in ins):
        shape = tuple(np.broadcast_shapes(*[t.shape for t in ins]))
        out = ctx.alloc(node.outputs[0], shape, out_dtype)
        try:
            return [out], [prepare(node, "aclnnFusedElementwise", [t.tensor for t in ins], steps,
                                   tuple(node.attrs.get("fused", ())), out.tensor)]
        except UnsupportedModelError:
            pass
    values = dict(zip(node.inputs, ins))
    calls, outs = [], []
    for m in node.attrs["members"]:
        outs, cs = lower_node(ctx, m, [values[i] for i in m.inputs], opset)
        values.update(zip(m.outputs, outs))
        calls.extend(cs)
    return outs, calls


def _result_dtype(ins, steps):
    """The chain's result dtype from the inputs' (None when operands mix dtypes)."""
    from opsnn.math.fused_elementwise.infershape import step_dtypes
    try:
        dts = step_dtypes([t.dtype for t in ins], steps)
    except (TypeError, IndexError, KeyError):
        return None
    every = [t.dtype for t in ins] + dts
    if any(len(o) == 2 and every[o[0]] != every[o[1]] for _, o, _ in steps):
        return None
    return dts[-1]


def _fallback(ctx, node: Node, ins: list[DTensor], opset: int):
    """Lower a fused node's members one by one (the kernel refused the operands)."""
    from .dispatch import lower_node
    values = dict(zip(node.inputs, ins))
    calls = []
    for m in node.attrs["members"]:
        outs, cs = lower_node(ctx, m, [values.get(i) for i in m.inputs], opset)
        values.update(zip(m.outputs, outs))
        calls.extend(cs)
    return [values[o] for o in node.outputs], calls


@register("FusedAddRmsNorm", opset=True)
def lower_fused_add_rms_norm(ctx, node: Node, ins: list[DTensor], opset: int):
    """aclnnAddRmsNorm(x1, x2, gamma, epsilon, yOut, rstdOut, xOut): outputs [y, x1 + x2]."""
    x1, x2, gamma = ins
    if x1.dtype.kind == "f" and x2.dtype == x1.dtype:
        rank = len(x1.shape)
        axis = int(node.attrs.get("axis", -1)) % rank
        y = ctx.alloc(node.outputs[0], x1.shape, x1.dtype)
        xo = ctx.alloc(node.outputs[1], x1.shape, x1.dtype)
        rstd = ctx.alloc(node.outputs[0] + "__rstd", tuple(x1.shape[:axis]) + (1,) * (rank - axis), np.float32)
        try:
            return [y, xo], [prepare(node, "aclnnAddRmsNorm", x1.tensor, x2.tensor, gamma.tensor,
                                     float(node.attrs.get("epsilon", 1e-5)), y.tensor, rstd.tensor, xo.tensor,
                                     list(node.attrs.get("fused", ())))]
        except UnsupportedModelError:
            pass
    return _fallback(ctx, node, ins, opset)


@register("FusedSwiGlu", opset=True)
def lower_fused_swiglu(ctx, node: Node, ins: list[DTensor], opset: int):
    """aclnnSwiGlu(x, dim, out)."""
    x = ins[0]
    if x.dtype.kind == "f":
        dim = int(node.attrs.get("dim", -1)) % len(x.shape)
        shape = tuple(s // 2 if i == dim else s for i, s in enumerate(x.shape))
        out = ctx.alloc(node.outputs[0], shape, x.dtype)
        try:
            return [out], [prepare(node, "aclnnSwiGlu", x.tensor, dim, out.tensor,
                                   list(node.attrs.get("fused", ())))]
        except UnsupportedModelError:
            pass
    return _fallback(ctx, node, ins, opset)


@register("FusedRotaryPosEmb", opset=True)
def lower_fused_rotary(ctx, node: Node, ins: list[DTensor], opset: int):
    """x [B, N, S, D] rotated by cos/sin [b, 1, S, D] or [S, D] (rotate-half form); a
    pair (inputs [q, cos, sin, k], outputs [q', k']) rotates k [B, Nk, S, D] too, as keyRef."""
    from .tensors import cast_to, strided_view
    x, cos, sin = ins[:3]
    xs = [x] + list(ins[3:])
    if all(t.dtype.kind == "f" and t.dtype == x.dtype for t in xs) and cos.dtype == sin.dtype == x.dtype:
        b, n, s, d = x.shape
        cb = cos.shape[0] if len(cos.shape) == 4 else 1
        try:
            outs, views, copies = [], [], []
            for t, name in zip(xs, node.outputs):
                out, copy = cast_to(ctx, node, t, t.dtype, name)
                tn = t.shape[1]
                views.append(strided_view(out, name + "__bsnd", (b, s, tn, d), (tn * s * d, d, s * d, 1)).tensor)
                outs.append(out)
                copies.append(copy)
            cv = ctx.view(cos, node.outputs[0] + "__cos_bs1d", (cb, s, 1, d))
            sv = ctx.view(sin, node.outputs[0] + "__sin_bs1d", (cb, s, 1, d))
            return outs, copies + [prepare(node, "aclnnApplyRotaryPosEmb", views[0], (views[1:] or [None])[0],
                                           cv.tensor, sv.tensor, 1, "half", list(node.attrs.get("fused", ())))]
        except UnsupportedModelError:
            pass
    return _fallback(ctx, node, ins, opset)
