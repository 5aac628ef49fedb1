"""Lowering of the elementwise ops onto aclnn calls.

==========  ==========================================================================
ONNX op     aclnn prepare(s) prepared (phase 1 runs here, once)
==========  ==========================================================================
Relu        aclnnRelu
Sum         a chain of aclnnAdd with alpha 1 (variadic, broadcasting)
Add, Sub    aclnnAdd / aclnnSub (alpha 1; broadcasting)
Mul, Div    aclnnMul / aclnnDiv; integer Div divides in float32 then aclnnCast
            truncates toward zero (the onnx reference's ``astype``)
Erf, Sqrt   aclnnErf / aclnnSqrt
Gelu        aclnnGelu (approximate="tanh": aclnnGeluV2)
Pow         aclnnPowTensorScalar for a constant scalar exponent, else
            aclnnPowTensorTensor; an integer base computes in float32 + aclnnCast
Clip        aclnnClamp with constant bounds (aclScalar), else aclnnClampTensor
Cast        aclnnCast
Where       aclnnSWhere
Equal       aclnnEqTensor
==========  ==========================================================================
"""
from __future__ import annotations

import numpy as np

from ..errors import UnsupportedModelError
from ..graph import Node
from .attrs import attr_float, attr_int, bad
from .registry import register
from .tensors import alpha_one, broadcast_shape, cast_to, const, node_acl_dtype, prepare, scalar


@register("Relu")
def lower_relu(ctx, node, ins):
    out = ctx.alloc(node.outputs[0], ins[0].shape, ins[0].dtype)
    return [out], [prepare(node, "aclnnRelu", ins[0].tensor, out.tensor)]


@register("Sum")
def lower_sum(ctx, node, ins):
    """Sum (variadic, broadcasting): a chain of aclnnAdd with alpha 1."""
    if len(ins) == 1:
        return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []
    one = alpha_one(ins[0].dtype)
    calls = []
    acc = ins[0]
    for i, nxt in enumerate(ins[1:]):
        last = i == len(ins) - 2
        name = node.outputs[0] if last else f"{node.outputs[0]}__partial{i}"
        out = ctx.alloc(name, broadcast_shape(node, acc.shape, nxt.shape), acc.dtype)
        calls.append(prepare(node, "aclnnAdd", acc.tensor, nxt.tensor, one, out.tensor))
        acc = out
    return [acc], calls


@register("Add", "Sub", "Mul", "Div")
def lower_binary(ctx, node: Node, ins):
    """Add/Sub/Mul/Div (same-dtype operands, ONNX broadcasting)."""
    a, b = ins
    shape = broadcast_shape(node, a.shape, b.shape)
    op = node.op_type
    if op == "Div" and a.dtype.kind in "iub":
        tmp = ctx.alloc(node.outputs[0] + "__f32", shape, np.float32)
        call = prepare(node, "aclnnDiv", a.tensor, b.tensor, tmp.tensor)
        out, cast = cast_to(ctx, node, tmp, a.dtype, node.outputs[0])
        return [out], [call, cast]
    out = ctx.alloc(node.outputs[0], shape, a.dtype)
    if op in ("Add", "Sub"):
        one = scalar(node, 1, a.dtype if a.dtype.kind in "iu" else np.float32)
        return [out], [prepare(node, f"aclnn{op}", a.tensor, b.tensor, one, out.tensor)]
    return [out], [prepare(node, f"aclnn{op}", a.tensor, b.tensor, out.tensor)]


def unary(aclnn: str):
    def lower(ctx, node: Node, ins):
        x = ins[0]
        out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
        return [out], [prepare(node, aclnn, x.tensor, out.tensor)]
    lower.__doc__ = f"One {aclnn} call, output shape and dtype of the input."
    return lower


@register("Gelu")
def lower_gelu(ctx, node: Node, ins):
    x = ins[0]
    approx = node.attrs.get("approximate", "none") or "none"
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    if approx == "none":
        return [out], [prepare(node, "aclnnGelu", x.tensor, out.tensor)]
    if approx == "tanh":
        return [out], [prepare(node, "aclnnGeluV2", x.tensor, 1, out.tensor)]
    raise UnsupportedModelError(f"Gelu node {node.name!r}: approximate={approx!r} is not supported")


@register("Pow")
def lower_pow(ctx, node: Node, ins):
    x, e = ins
    shape = broadcast_shape(node, x.shape, e.shape)
    ec = const(ctx, node.inputs[1])
    via_float = x.dtype.kind in "iu"
    target = ctx.alloc(node.outputs[0] + ("__f32" if via_float else ""), shape,
                       np.float32 if via_float else x.dtype)
    if ec is not None and ec.size == 1 and shape == x.shape:
        call = prepare(node, "aclnnPowTensorScalar", x.tensor,
                     scalar(node, ec.reshape(-1)[0], ec.dtype if ec.dtype.kind != "f" else np.float32),
                     target.tensor)
    else:
        call = prepare(node, "aclnnPowTensorTensor", x.tensor, e.tensor, target.tensor)
    if not via_float:
        return [target], [call]
    out, cast = cast_to(ctx, node, target, x.dtype, node.outputs[0])
    return [out], [call, cast]


@register("Clip")
def lower_clip(ctx, node: Node, ins):
    x = ins[0]
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    if "min" in node.attrs or "max" in node.attrs:  # opset 6
        lo = attr_float(node, "min", 0.0) if "min" in node.attrs else None
        hi = attr_float(node, "max", 0.0) if "max" in node.attrs else None
        return [out], [prepare(node, "aclnnClamp", x.tensor, None if lo is None else scalar(node, lo, np.float32),
                             None if hi is None else scalar(node, hi, np.float32), out.tensor)]
    names = [node.inputs[i] if len(node.inputs) > i else "" for i in (1, 2)]
    consts = [const(ctx, n) if n else None for n in names]
    if all((not n) or c is not None for n, c in zip(names, consts)):
        if any(c is not None and np.asarray(c).size != 1 for c in consts):
            raise bad(node, f"min and max must be scalars, got shapes {[list(np.shape(c)) for c in consts]}")
        sc = [None if c is None else scalar(node, np.asarray(c).reshape(-1)[0], x.dtype) for c in consts]
        if sc[0] is None and sc[1] is None:
            return [out], [prepare(node, "aclnnCast", x.tensor, node_acl_dtype(node, x.dtype), out.tensor)]
        return [out], [prepare(node, "aclnnClamp", x.tensor, sc[0], sc[1], out.tensor)]
    lo = ins[1] if names[0] else None
    hi = ins[2] if names[1] else None
    return [out], [prepare(node, "aclnnClampTensor", x.tensor, lo.tensor if lo else None,
                         hi.tensor if hi else None, out.tensor)]


@register("Cast")
def lower_cast(ctx, node: Node, ins):
    x = ins[0]
    from onnx import helper
    to = attr_int(node, "to")
    try:
        dt = np.dtype(helper.tensor_dtype_to_np_dtype(to))
    except Exception:  # noqa: BLE001
        raise UnsupportedModelError(f"Cast node {node.name!r}: target type {to} is not supported") from None
    out, call = cast_to(ctx, node, x, dt, node.outputs[0])
    return [out], [call]


@register("Where")
def lower_where(ctx, node: Node, ins):
    c, a, b = ins
    out = ctx.alloc(node.outputs[0], broadcast_shape(node, c.shape, a.shape, b.shape), a.dtype)
    return [out], [prepare(node, "aclnnSWhere", c.tensor, a.tensor, b.tensor, out.tensor)]


@register("Equal")
def lower_equal(ctx, node: Node, ins):
    a, b = ins
    out = ctx.alloc(node.outputs[0], broadcast_shape(node, a.shape, b.shape), np.bool_)
    return [out], [prepare(node, "aclnnEqTensor", a.tensor, b.tensor, out.tensor)]


register("Erf")(unary("aclnnErf"))
register("Sqrt")(unary("aclnnSqrt"))
