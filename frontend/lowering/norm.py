"""Lowering of ONNX group and instance normalisation onto aclnnGroupNorm.

===========================  ==================================================================
ONNX op                      aclnn call
===========================  ==================================================================
GroupNormalization (18, 21)  aclnnGroupNorm(X, scale, bias, N, C, HxW, num_groups, epsilon);
                             opset 21's scale/bias are per channel [C]; opset 18's were per
                             group [num_groups] and are repeated over each group's channels
InstanceNormalization        aclnnGroupNorm with num_groups = C (scale, B per channel)
===========================  ==================================================================

Mean and rstd outputs of aclnnGroupNorm are scratch tensors here (ONNX returns only Y).
"""
from __future__ import annotations

import numpy as np

from .attrs import attr_float, attr_int, bad
from .registry import register
from .tensors import prepare


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
