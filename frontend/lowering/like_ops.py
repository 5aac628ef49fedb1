"""Lowering of small ONNX ops that reuse existing aclnn kernels (added with the node-test
coverage of issue 10):

=============  =====================================================================
ONNX op        aclnn prepare
=============  =====================================================================
CastLike       aclnnCast to the second input's dtype (as Cast)
EyeLike        no kernel: the output depends only on the (static) input shape, so
               the identity-like constant is made at prepare time and uploaded
CenterCropPad  a strided view for the cropped axes, then aclnnConstantPadNd with 0
               for the padded ones (aclnnCast materialises a crop-only result)
=============  =====================================================================
"""
from __future__ import annotations

import numpy as np

import opsnn

from ..graph import Node
from .attrs import attr_int, attr_ints, axis_index, bad
from .registry import register
from .tensors import DTensor, cast_to, const, prepare, scalar, strided_view


@register("CastLike")
def lower_castlike(ctx, node: Node, ins: list[DTensor]):
    """y = x cast to the dtype of ``target_type`` (the second input)."""
    out, call = cast_to(ctx, node, ins[0], ins[1].dtype, node.outputs[0])
    return [out], [call]


@register("EyeLike")
def lower_eyelike(ctx, node: Node, ins: list[DTensor]):
    """Ones on diagonal ``k`` of a 2-D tensor shaped like the input, in ``dtype`` (an
    ONNX TensorProto type; default the input's)."""
    x = ins[0]
    if len(x.shape) != 2:
        raise bad(node, f"input shape {list(x.shape)} must be 2-D")
    dt = x.dtype
    if "dtype" in node.attrs:
        from onnx import helper
        dt = np.dtype(helper.tensor_dtype_to_np_dtype(attr_int(node, "dtype")))
    eye = np.eye(x.shape[0], x.shape[1], k=attr_int(node, "k", 0), dtype=dt)
    return [ctx.upload(node.outputs[0], eye)], []


@register("CenterCropPad")
def lower_center_crop_pad(ctx, node: Node, ins: list[DTensor]):
    """Crop (centred, the odd element dropped at the end) or zero-pad (centred, the odd
    element added at the end) each of ``axes`` to the constant ``shape`` input."""
    x = ins[0]
    rank = len(x.shape)
    target = const(ctx, node.inputs[1])
    if target is None:
        raise bad(node, "the target shape must be constant")
    axes = attr_ints(node, "axes", list(range(rank)))
    axes = [axis_index(node, a, rank, "axes value") for a in axes]
    target = [int(v) for v in np.asarray(target).reshape(-1)]
    if len(target) != len(axes):
        raise bad(node, f"shape {target} must hold one extent per axis {axes}")
    start, crop, pads = [0] * rank, list(x.shape), [(0, 0)] * rank
    for a, t in zip(axes, target):
        size = x.shape[a]
        if t < size:
            start[a], crop[a] = (size - t) // 2, t
        elif t > size:
            pads[a] = ((t - size) // 2, t - size - (t - size) // 2)
    strides = [int(np.prod(x.shape[i + 1:], dtype=np.int64)) for i in range(rank)]
    offset = sum(s * b for s, b in zip(start, strides))
    v = x if tuple(crop) == tuple(x.shape) else strided_view(x, node.outputs[0] + "__crop", crop, strides, offset)
    if all(p == (0, 0) for p in pads):
        out, call = cast_to(ctx, node, v, v.dtype, node.outputs[0])
        return [out], [call]
    out = ctx.alloc(node.outputs[0], tuple(c + b + e for c, (b, e) in zip(crop, pads)), x.dtype)
    cann = [q for b, e in reversed(pads) for q in (b, e)]
    return [out], [prepare(node, "aclnnConstantPadNd", v.tensor, opsnn.aclCreateIntArray(cann),
                           scalar(node, 0, x.dtype), out.tensor)]
