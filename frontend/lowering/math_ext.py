"""Lowering of the ONNX pointwise math, comparison, logic and min/max ops onto the
table-generated aclnn families (``opsnn.math.unary_math``, ``compare``, ``logical``,
``minmax``).

=========================  =============================================================
ONNX op                    aclnn call(s)
=========================  =============================================================
Exp Log Abs Neg Reciprocal aclnn<Op>(x, out), output dtype of the input
Floor Ceil Round Sign      (Round: half to even in both)
Sin Cos Tan Asin Acos Atan
Sinh Cosh Asinh Acosh Atanh
IsNaN                      aclnnIsNan -> BOOL
IsInf                      aclnnIsInf / aclnnIsPosInf / aclnnIsNegInf (detect_positive,
                           detect_negative) -> BOOL
Not                        aclnnLogicalNot; BitwiseNot: aclnnBitwiseNot
Greater Less               aclnnGtTensor / aclnnLtTensor / aclnnGeTensor / aclnnLeTensor
GreaterOrEqual LessOrEqual (broadcasting) -> BOOL
And Or Xor                 aclnnLogicalAnd / Or / Xor -> BOOL
BitwiseAnd/Or/Xor          aclnnBitwiseAndTensor / OrTensor / XorTensor
Max, Min (variadic)        a chain of aclnnMaximum / aclnnMinimum (broadcasting)
Mean (variadic)            a chain of aclnnAdd, then aclnnDivs by the count
Mod                        fmod=0: aclnnRemainderTensorTensor (floor modulo, the sign of
                           the divisor, as ONNX; floats too); fmod=1: aclnnFmodTensor
=========================  =============================================================
"""
from __future__ import annotations

import numpy as np

from .attrs import attr_int, bad
from .registry import register
from .tensors import alpha_one, broadcast_shape, prepare, scalar

_UNARY = ("Exp", "Log", "Abs", "Neg", "Reciprocal", "Floor", "Ceil", "Round", "Sign", "Sin", "Cos", "Tan", "Asin",
          "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh")
#: ONNX op -> (aclnn entry point, result is BOOL)
UNARY = {**{op: (f"aclnn{op}", False) for op in _UNARY}, "IsNaN": ("aclnnIsNan", True),
         "Not": ("aclnnLogicalNot", True), "BitwiseNot": ("aclnnBitwiseNot", False)}
BINARY = {"Greater": ("aclnnGtTensor", True), "Less": ("aclnnLtTensor", True),
          "GreaterOrEqual": ("aclnnGeTensor", True), "LessOrEqual": ("aclnnLeTensor", True),
          "And": ("aclnnLogicalAnd", True), "Or": ("aclnnLogicalOr", True), "Xor": ("aclnnLogicalXor", True),
          "BitwiseAnd": ("aclnnBitwiseAndTensor", False), "BitwiseOr": ("aclnnBitwiseOrTensor", False),
          "BitwiseXor": ("aclnnBitwiseXorTensor", False)}


def _unary(ctx, node, x, aclnn: str, to_bool: bool):
    out = ctx.alloc(node.outputs[0], x.shape, np.bool_ if to_bool else x.dtype)
    return [out], [prepare(node, aclnn, x.tensor, out.tensor)]


@register(*UNARY)
def lower_unary_math(ctx, node, ins):
    """One aclnn unary call (module table)."""
    return _unary(ctx, node, ins[0], *UNARY[node.op_type])


@register("IsInf")
def lower_isinf(ctx, node, ins):
    neg, pos = attr_int(node, "detect_negative", 1), attr_int(node, "detect_positive", 1)
    if not (neg or pos):
        raise bad(node, "detect_negative=0 and detect_positive=0 (an all-false output) is not supported")
    aclnn = "aclnnIsInf" if neg and pos else ("aclnnIsPosInf" if pos else "aclnnIsNegInf")
    return _unary(ctx, node, ins[0], aclnn, True)


@register(*BINARY)
def lower_binary_logic(ctx, node, ins):
    """One broadcasting aclnn comparison / logical / bitwise call."""
    aclnn, to_bool = BINARY[node.op_type]
    a, b = ins
    out = ctx.alloc(node.outputs[0], broadcast_shape(node, a.shape, b.shape), np.bool_ if to_bool else a.dtype)
    return [out], [prepare(node, aclnn, a.tensor, b.tensor, out.tensor)]


def _chain(ctx, node, ins, aclnn: str, *extra, last_name: str | None = None):
    """Fold ``ins`` left to right with the binary ``aclnn`` (``extra`` arguments
    between ``other`` and ``out``); returns (result, calls)."""
    if len(ins) == 1:
        return ctx.view(ins[0], last_name or node.outputs[0], ins[0].shape), []
    calls, acc = [], ins[0]
    for i, nxt in enumerate(ins[1:]):
        name = (last_name or node.outputs[0]) if i == len(ins) - 2 else f"{node.outputs[0]}__partial{i}"
        out = ctx.alloc(name, broadcast_shape(node, acc.shape, nxt.shape), acc.dtype)
        calls.append(prepare(node, aclnn, acc.tensor, nxt.tensor, *extra, out.tensor))
        acc = out
    return acc, calls


@register("Max", "Min")
def lower_max_min(ctx, node, ins):
    """Variadic Max/Min: a chain of aclnnMaximum / aclnnMinimum."""
    out, calls = _chain(ctx, node, ins, "aclnnMaximum" if node.op_type == "Max" else "aclnnMinimum")
    return [out], calls


@register("Mean")
def lower_mean(ctx, node, ins):
    """Variadic Mean: a chain of aclnnAdd (alpha 1), then aclnnDivs by the count."""
    if len(ins) == 1:
        return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []
    total, calls = _chain(ctx, node, ins, "aclnnAdd", alpha_one(ins[0].dtype), last_name=node.outputs[0] + "__sum")
    out = ctx.alloc(node.outputs[0], total.shape, total.dtype)
    count = scalar(node, float(len(ins)), np.float64 if total.dtype == np.float64 else np.float32)
    calls.append(prepare(node, "aclnnDivs", total.tensor, count, out.tensor))
    return [out], calls


@register("Mod")
def lower_mod(ctx, node, ins):
    """Mod: fmod=0 floor modulo (aclnnRemainderTensorTensor), fmod=1 C fmod (aclnnFmodTensor)."""
    fmod = attr_int(node, "fmod", 0)
    a, b = ins
    out = ctx.alloc(node.outputs[0], broadcast_shape(node, a.shape, b.shape), a.dtype)
    aclnn = "aclnnFmodTensor" if fmod else "aclnnRemainderTensorTensor"
    return [out], [prepare(node, aclnn, a.tensor, b.tensor, out.tensor)]
