"""Lowering of the ONNX activations onto the table-generated aclnn activations
(:mod:`opsnn.activation.unary_activation`): one aclnn call per node, output shape and
dtype of the input, ONNX attributes passed as aclScalars (FLOAT; DOUBLE for a
float64 input) in CANN's argument order.

================  ==================================================================
ONNX op           aclnn call (ONNX attribute defaults in brackets)
================  ==================================================================
Sigmoid, Tanh     aclnnSigmoid / aclnnTanh
LeakyRelu         aclnnLeakyRelu(x, alpha [0.01])
Elu               aclnnElu(x, alpha [1], scale 1, inputScale 1)
Selu              aclnnElu(x, alpha [1.6733], scale = gamma [1.0507], inputScale 1)
                  (ONNX lets alpha/gamma vary; aclnnSelu fixes them)
Celu              aclnnCelu(x, alpha [1])
Softplus          aclnnSoftplus(x, beta 1, threshold 20)
Softsign          aclnnSoftsign
HardSigmoid       aclnnHardsigmoidV2(x, alpha [0.2], beta [0.5])
HardSwish, Mish   aclnnHardswish / aclnnMish
Swish             aclnnSwish(x, alpha [1])
ThresholdedRelu   aclnnThreshold(x, alpha [1], value 0)
Shrink            aclnnShrink(x, lambd [0.5], bias [0])
PRelu             aclnnPrelu(x, slope viewed at x's rank, out) (unidirectional broadcast)
LogSoftmax        aclnnLogSoftmax(x, axis [-1]); opset < 13: over dim 1 of the 2-D view
Hardmax           aclnnHardmax(x, axis [-1]) (likewise)
================  ==================================================================
"""
from __future__ import annotations

import numpy as np

from .attrs import attr_float, attr_int, axis_index
from .registry import register
from .tensors import prepare, scalar

#: ONNX op -> (aclnn entry point, arguments after x: ("attr", name, default) or ("const", value))
ACTIVATIONS = {
    "Sigmoid": ("aclnnSigmoid", ()),
    "Tanh": ("aclnnTanh", ()),
    "LeakyRelu": ("aclnnLeakyRelu", (("attr", "alpha", 0.01),)),
    "Elu": ("aclnnElu", (("attr", "alpha", 1.0), ("const", 1.0), ("const", 1.0))),
    "Selu": ("aclnnElu", (("attr", "alpha", 1.67326319217681884765625), ("attr", "gamma", 1.05070102214813232421875),
                          ("const", 1.0))),
    "Celu": ("aclnnCelu", (("attr", "alpha", 1.0),)),
    "Softplus": ("aclnnSoftplus", (("const", 1.0), ("const", 20.0))),
    "Softsign": ("aclnnSoftsign", ()),
    "HardSigmoid": ("aclnnHardsigmoidV2", (("attr", "alpha", 0.2), ("attr", "beta", 0.5))),
    "HardSwish": ("aclnnHardswish", ()),
    "Mish": ("aclnnMish", ()),
    "Swish": ("aclnnSwish", (("attr", "alpha", 1.0),)),
    "ThresholdedRelu": ("aclnnThreshold", (("attr", "alpha", 1.0), ("const", 0.0))),
    "Shrink": ("aclnnShrink", (("attr", "lambd", 0.5), ("attr", "bias", 0.0))),
}


def scalar_args(node, x, spec) -> list:
    """aclScalars for ``spec`` (("attr", name, default) / ("const", value) items): FLOAT,
    or DOUBLE when ``x`` is float64 (so no attribute loses precision)."""
    dt = np.float64 if x.dtype == np.float64 else np.float32
    vals = [attr_float(node, s[1], s[2]) if s[0] == "attr" else s[1] for s in spec]
    return [scalar(node, v, dt) for v in vals]


def lower_activation(ctx, node, ins):
    """One table-generated aclnn activation (see the module table)."""
    aclnn, spec = ACTIVATIONS[node.op_type]
    x = ins[0]
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, aclnn, x.tensor, *scalar_args(node, x, spec), out.tensor)]


register(*ACTIVATIONS)(lower_activation)


@register("PRelu")
def lower_prelu(ctx, node, ins):
    """PRelu: aclnnPrelu with the slope viewed at X's rank (leading 1s), so that its
    numpy (ONNX) broadcast applies and never CANN's channel rule for 1-D weights."""
    x, slope = ins
    if len(slope.shape) < len(x.shape):
        slope = ctx.view(slope, node.outputs[0] + "__slope", (1,) * (len(x.shape) - len(slope.shape)) + slope.shape)
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    return [out], [prepare(node, "aclnnPrelu", x.tensor, slope.tensor, out.tensor)]


@register("LogSoftmax", "Hardmax", opset=True)
def lower_row_activation(ctx, node, ins, opset: int):
    """LogSoftmax / Hardmax along ``axis``; before opset 13 the input is coerced to 2-D
    at ``axis`` (default 1) and the op runs over the second dim."""
    aclnn = f"aclnn{node.op_type}"
    x = ins[0]
    rank = len(x.shape)
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    if opset < 13:
        axis = axis_index(node, attr_int(node, "axis", 1), rank)
        rows = int(np.prod(x.shape[:axis], dtype=np.int64))
        cols = int(np.prod(x.shape[axis:], dtype=np.int64))
        x2 = ctx.view(x, node.outputs[0] + "__x_2d", (rows, cols))
        o2 = ctx.view(out, out.name + "__2d", (rows, cols))
        return [out], [prepare(node, aclnn, x2.tensor, 1, o2.tensor)]
    axis = axis_index(node, attr_int(node, "axis", -1), rank)
    return [out], [prepare(node, aclnn, x.tensor, axis, out.tensor)]
