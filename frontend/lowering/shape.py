"""Lowering of the ops that only change how memory is viewed.

Reshape, Flatten, Identity, Dropout (at inference), Squeeze and Unsqueeze alias their
input's device memory and cost no kernel. Expand runs one aclnnMul by a ones constant
shaped like the new dims. Shape, Size and ConstantOfShape fold at load time
(:mod:`frontend.onnx_import`); reaching lowering means the shape is dynamic, which is
reported as unsupported. Training-mode Dropout is refused.
"""
from __future__ import annotations

import numpy as np

from ..errors import UnsupportedModelError
from ..graph import Node
from .attrs import attr_int, attr_ints, axes_arg, bad
from .registry import register
from .tensors import broadcast_shape, const, prepare


@register("Reshape")
def lower_reshape(ctx, node, ins):
    x = ins[0]
    shape = ctx.const(node.inputs[1])
    if shape is None:
        raise bad(node, "the target shape must be constant")
    shape = [int(s) for s in np.asarray(shape).reshape(-1)]
    allowzero = attr_int(node, "allowzero", 0)
    if not allowzero and any(s == 0 and i >= len(x.shape) for i, s in enumerate(shape)):
        raise bad(node, f"target shape {shape} copies (0) a dim beyond the input's {len(x.shape)}")
    given = list(shape)
    shape = [x.shape[i] if (s == 0 and not allowzero) else s for i, s in enumerate(shape)]
    if shape.count(-1) > 1 or any(s < -1 for s in shape):
        raise bad(node, f"target shape {given}: at most one -1 and no other negative dims")
    total = int(np.prod(x.shape, dtype=np.int64))
    if -1 in shape:
        known = int(np.prod([s for s in shape if s != -1], dtype=np.int64))
        if known == 0 or total % known:
            raise bad(node, f"cannot reshape {list(x.shape)} to {given}")
        shape[shape.index(-1)] = total // known
    if int(np.prod(shape, dtype=np.int64)) != total:
        raise bad(node, f"cannot reshape {list(x.shape)} ({total} elements) to {given}")
    return [ctx.view(x, node.outputs[0], tuple(shape))], []


@register("Flatten")
def lower_flatten(ctx, node, ins):
    x = ins[0]
    rank = len(x.shape)
    axis = attr_int(node, "axis", 1)
    if not -rank <= axis <= rank:
        raise bad(node, f"axis {axis} is out of range [-{rank}, {rank}]")
    if axis < 0:
        axis += rank          # ONNX: a negative axis counts from the back (-1 is rank - 1)
    rows = int(np.prod(x.shape[:axis], dtype=np.int64))
    cols = int(np.prod(x.shape[axis:], dtype=np.int64))
    return [ctx.view(x, node.outputs[0], (rows, cols))], []


@register("Identity")
def lower_identity(ctx, node, ins):
    """Identity (and Dropout at inference: :func:`lower_dropout`)."""
    return [ctx.view(ins[0], node.outputs[0], ins[0].shape)], []


@register("Dropout", opset=True)
def lower_dropout(ctx, node, ins, opset: int = 13):
    """Dropout at inference is Identity, and its optional mask is all true. Training mode is refused: a constant true
    ``training_mode`` input (opset >= 12), a runtime one, or is_test=0 (opset < 7)."""
    if opset >= 12 and len(node.inputs) > 2 and node.inputs[2]:
        t = ctx.const(node.inputs[2])
        if t is None:
            raise bad(node, "a runtime training_mode input is not supported (it must be a constant false)")
        if bool(np.asarray(t).reshape(-1)[0]):
            raise bad(node, "training-mode Dropout is not supported (training_mode is true)")
    if opset < 7 and not attr_int(node, "is_test", 0):
        raise bad(node, "training-mode Dropout is not supported (is_test=0, opset < 7)")
    outs, calls = lower_identity(ctx, node, ins)
    if len(node.outputs) > 1 and node.outputs[1]:   # the mask keeps every element at inference: all true,
        mask = np.ones(ins[0].shape, bool)           # a constant made at prepare time (no kernel)
        outs.append(ctx.upload(node.outputs[1], mask))
    return outs, calls


@register("Squeeze")
def lower_squeeze(ctx, node, ins):
    x = ins[0]
    axes = axes_arg(ctx, node, len(x.shape))
    if axes is None:
        axes = [i for i, d in enumerate(x.shape) if d == 1]
    elif any(x.shape[a] != 1 for a in axes):
        raise bad(node, f"cannot squeeze axes {axes} of shape {list(x.shape)}: not all of size 1")
    shape = tuple(d for i, d in enumerate(x.shape) if i not in axes)
    return [ctx.view(x, node.outputs[0], shape)], []


@register("Unsqueeze")
def lower_unsqueeze(ctx, node, ins):
    x = ins[0]
    n_axes = len(attr_ints(node, "axes", None) or [])
    if not n_axes and len(node.inputs) > 1 and node.inputs[1] and ctx.const(node.inputs[1]) is not None:
        n_axes = int(np.asarray(ctx.const(node.inputs[1])).size)
    axes = axes_arg(ctx, node, len(x.shape) + n_axes)
    if not axes:
        raise bad(node, "axes are required (attribute before opset 13, a constant input from opset 13)")
    shape = list(x.shape)
    for a in sorted(axes):
        shape.insert(a, 1)
    return [ctx.view(x, node.outputs[0], tuple(shape))], []


@register("Expand")
def lower_expand(ctx, node: Node, ins):
    """Expand: ``x * ones(b)`` with ``b`` 1 where ``x`` already has the target's extent
    and the target's extent elsewhere, so aclnnMul's own broadcasting does the copy
    (exact for every dtype; the ones constant is only as large as the new dims)."""
    x = ins[0]
    shape_c = const(ctx, node.inputs[1])
    if shape_c is None:
        raise UnsupportedModelError(f"Expand node {node.name!r}: the target shape must be constant")
    shape_c = np.asarray(shape_c)
    if shape_c.ndim != 1 or shape_c.dtype.kind not in "iu" or (shape_c < 0).any():
        raise bad(node, f"the target shape must be a 1-D list of dims >= 0, got {shape_c.tolist()}")
    shape = broadcast_shape(node, x.shape, tuple(int(d) for d in shape_c))
    if shape == x.shape:
        return [ctx.view(x, node.outputs[0], x.shape)], []
    xs = (1,) * (len(shape) - len(x.shape)) + tuple(x.shape)
    ones_shape = tuple(1 if xd == d else d for xd, d in zip(xs, shape))
    ones = ctx.upload(node.outputs[0] + "__ones", np.ones(ones_shape, x.dtype))
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    return [out], [prepare(node, "aclnnMul", x.tensor, ones.tensor, out.tensor)]


@register("Shape", "Size", "ConstantOfShape")
def lower_dynamic(ctx, node: Node, ins):
    raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: its input has a dynamic shape, so it cannot be "
                                "folded at prepare time (give static input shapes, e.g. with --inputs)")


