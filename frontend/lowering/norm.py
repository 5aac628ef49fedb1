"""Lowering of ONNX group and instance normalisation onto aclnnGroupNorm.

===========================  ==================================================================
ONNX op                      aclnn call
===========================  ==================================================================
GroupNormalization (18, 21)  aclnnGroupNorm(X, scale, bias, N, C, HxW, num_groups, epsilon);
                             opset 21's scale/bias are per channel [C]; opset 18's were per
                             group [num_groups] and are repeated over each group's channels
InstanceNormalization        aclnnGroupNorm with num_groups = C (scale, B per channel)
RMSNormalization (23)        aclnnRmsNorm(X, scale, epsilon, Y, rstd): gamma = scale over
                             X.shape[axis:]; a scale that only broadcasts to those dims is
                             expanded first (aclnnCast of a stride-0 view); stash_type 1 (the
                             default) computes in float32, as aclnnRmsNorm always does
===========================  ==================================================================

Mean and rstd outputs of aclnnGroupNorm and aclnnRmsNorm are scratch tensors here (ONNX
returns only Y).
"""
from __future__ import annotations

import numpy as np

from .attrs import attr_float, attr_int, bad
from .registry import register
from .tensors import broadcast_shape, cast_to, prepare, strided_view


def _group_norm(ctx, node, x, scale, bias, groups: int, eps: float):
    if len(x.shape) < 2:
        raise bad(node, f"input must be at least 2-D (N, C, ...), got {list(x.shape)}")
    n, c = int(x.shape[0]), int(x.shape[1])
    if groups < 1 or c % groups:
        raise bad(node, f"num_groups={groups} must be >= 1 and divide the {c} channels")
    hw = int(np.prod(x.shape[2:], dtype=np.int64))
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    mean = ctx.alloc(node.outputs[0] + "__mean", (n, groups), x.dtype)
    rstd = ctx.alloc(node.outputs[0] + "__rstd", (n, groups), x.dtype)
    call = prepare(node, "aclnnGroupNorm", x.tensor, scale.tensor, bias.tensor, n, c, hw, groups, eps,
                   out.tensor, mean.tensor, rstd.tensor)
    return [out], [call]


def _per_channel(ctx, node, t, c: int, groups: int, what: str):
    """A per-group [groups] scale/bias (GroupNormalization-18) repeated to [C]."""
    if tuple(t.shape) == (c,):
        return t
    const = ctx.const(t.name) if tuple(t.shape) == (groups,) else None
    if const is not None:
        return ctx.upload(f"{node.outputs[0]}__{what}_per_channel", np.repeat(const, c // groups))
    raise bad(node, f"{what} shape {list(t.shape)} must be [C={c}] (or a constant [num_groups={groups}])")


@register("GroupNormalization")
def lower_group_normalization(ctx, node, ins):
    x, scale, bias = ins[0], ins[1], ins[2]
    groups = attr_int(node, "num_groups", 0)
    c = int(x.shape[1]) if len(x.shape) >= 2 else 0
    if groups < 1:
        raise bad(node, "num_groups must be given and >= 1")
    scale = _per_channel(ctx, node, scale, c, groups, "scale")
    bias = _per_channel(ctx, node, bias, c, groups, "bias")
    return _group_norm(ctx, node, x, scale, bias, groups, attr_float(node, "epsilon", 1e-5))


@register("InstanceNormalization")
def lower_instance_normalization(ctx, node, ins):
    x, scale, bias = ins[0], ins[1], ins[2]
    c = int(x.shape[1]) if len(x.shape) >= 2 else 0
    return _group_norm(ctx, node, x, scale, bias, c, attr_float(node, "epsilon", 1e-5))


@register("RMSNormalization")
def lower_rms_normalization(ctx, node, ins):
    """Y = X / sqrt(mean(X^2 over axes [axis, rank)) + epsilon) * scale (opset 23)."""
    x, scale = ins[0], ins[1]
    rank = len(x.shape)
    axis = attr_int(node, "axis", -1)
    if not -rank <= axis < rank:
        raise bad(node, f"axis {axis} out of range for a {rank}-D input")
    if attr_int(node, "stash_type", 1) != 1:
        raise bad(node, "stash_type other than 1 (float32): aclnnRmsNorm always computes in float32")
    axis %= rank
    norm_shape = tuple(x.shape[axis:])
    if tuple(scale.shape) != norm_shape:
        if broadcast_shape(node, scale.shape, norm_shape) != norm_shape:
            raise bad(node, f"scale shape {list(scale.shape)} does not broadcast to {list(norm_shape)}")
        pad = (1,) * (len(norm_shape) - len(scale.shape)) + tuple(scale.shape)
        strides, acc = [], 1
        for d in reversed(pad):
            strides.append(0 if d == 1 else acc)
            acc *= d
        view = strided_view(scale, node.outputs[0] + "__scale_bcast", norm_shape, list(reversed(strides)))
        scale, cc = cast_to(ctx, node, view, scale.dtype, node.outputs[0] + "__scale")
        pre = [cc]
    else:
        pre = []
    out = ctx.alloc(node.outputs[0], x.shape, x.dtype)
    rstd = ctx.alloc(node.outputs[0] + "__rstd", tuple(x.shape[:axis]) + (1,) * (rank - axis), np.float32)
    call = prepare(node, "aclnnRmsNorm", x.tensor, scale.tensor, attr_float(node, "epsilon", 1e-5), out.tensor,
                   rstd.tensor)
    return [out], pre + [call]
