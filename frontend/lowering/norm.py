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
BatchNormalization,          aclnnCast(input_mean -> running_mean), then aclnnBatchNorm(X, scale,
training_mode=1 (14, 15)     B, running_mean, None, training=true, 1 - momentum, epsilon, Y,
                             saveMean, saveVar) updates running_mean in place (ONNX's momentum
                             weighs the old value, aclnn's the batch); running_var = input_var *
                             momentum + saveVar * (1 - momentum) (aclnnMuls, aclnnAdd with
                             alpha), since ONNX uses the biased batch variance there and
                             aclnnBatchNorm's in-place update the unbiased one
===========================  ==================================================================

Inference BatchNormalization stays in :mod:`.cnn`; this module wraps that handler and
takes the training-mode nodes (see :func:`lower_batchnorm`).

Mean and rstd outputs of aclnnGroupNorm and aclnnRmsNorm are scratch tensors here (ONNX
returns only Y).
"""
from __future__ import annotations

import numpy as np

from . import cnn as _cnn
from .attrs import attr_float, attr_int, bad
from .registry import OPSET_HANDLERS, register
from .tensors import broadcast_shape, cast_to, prepare, scalar, strided_view


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


_lower_batchnorm_inference = OPSET_HANDLERS["BatchNormalization"]


def lower_batchnorm(ctx, node, ins, opset: int = 15):
    """BatchNormalization: training mode (:func:`frontend.lowering.cnn._training_reason`)
    here, inference through :mod:`.cnn`'s handler."""
    if not _cnn._training_reason(node, opset):
        return _lower_batchnorm_inference(ctx, node, ins, opset)
    if opset < 14:
        raise bad(node, f"training-mode BatchNormalization is not supported before opset 14 "
                        f"({_cnn._training_reason(node, opset)}; opset 14+ training_mode=1 is lowered)")
    x, scale, bias, mean, var = ins[:5]
    if len(x.shape) < 2:
        raise bad(node, f"input shape {list(x.shape)} needs at least 2 dims [N, C, ...]")
    c = int(x.shape[1])
    for name, t in (("scale", scale), ("B", bias), ("input_mean", mean), ("input_var", var)):
        if tuple(t.shape) != (c,):
            raise bad(node, f"{name} has shape {list(t.shape)}; only per-channel statistics of shape [{c}] are "
                            "supported")
    m = attr_float(node, "momentum", 0.9)
    eps = attr_float(node, "epsilon", 1e-5)
    outs = list(node.outputs) + [""] * (3 - len(node.outputs))
    y = ctx.alloc(outs[0], x.shape, x.dtype)
    base = outs[0]
    rm, copy = cast_to(ctx, node, mean, mean.dtype, outs[1] or base + "__running_mean")
    save_mean = ctx.alloc(base + "__save_mean", (c,), var.dtype)
    save_var = ctx.alloc(base + "__save_var", (c,), var.dtype)
    calls = [copy, prepare(node, "aclnnBatchNorm", x.tensor, scale.tensor, bias.tensor, rm.tensor, None, True,
                           1.0 - m, eps, y.tensor, save_mean.tensor, save_var.tensor)]
    result = [y, rm]
    if len(node.outputs) > 2 and outs[2]:
        part = ctx.alloc(base + "__running_var_old", (c,), var.dtype)
        rv = ctx.alloc(outs[2], (c,), var.dtype)
        calls += [prepare(node, "aclnnMuls", var.tensor, scalar(node, m, np.float32), part.tensor),
                  prepare(node, "aclnnAdd", part.tensor, save_var.tensor, scalar(node, 1.0 - m, np.float32),
                          rv.tensor)]
        result.append(rv)
    return result[:max(1, len(node.outputs))], calls


OPSET_HANDLERS["BatchNormalization"] = lower_batchnorm
