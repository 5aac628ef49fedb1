"""Lowering of the ONNX reductions beyond ReduceSum/ReduceMean onto
:mod:`opsnn.reduce.reduce_ext`: axes from the attribute or the constant input,
``keepdims`` (default 1), ``noop_with_empty_axes`` (an empty axes list is then a view,
else every axis).

================  ==========================================
ONNX op           aclnn call
================  ==========================================
ReduceMax / Min   aclnnAmax / aclnnAmin
ReduceProd        aclnnReduceProd
ReduceSumSquare   aclnnReduceSumSquare
ReduceL1 / L2     aclnnNorm with pScalar 1 / 2
ReduceLogSum      aclnnReduceLogSum
ReduceLogSumExp   aclnnLogSumExp
================  ==========================================
"""
from __future__ import annotations

import numpy as np

import opsnn

from .attrs import reduce_plan
from .registry import register
from .tensors import prepare, scalar

#: ONNX op -> (aclnn entry point, the p of aclnnNorm or None)
REDUCTIONS = {"ReduceMax": ("aclnnAmax", None), "ReduceMin": ("aclnnAmin", None),
              "ReduceProd": ("aclnnReduceProd", None), "ReduceSumSquare": ("aclnnReduceSumSquare", None),
              "ReduceL1": ("aclnnNorm", 1.0), "ReduceL2": ("aclnnNorm", 2.0),
              "ReduceLogSum": ("aclnnReduceLogSum", None), "ReduceLogSumExp": ("aclnnLogSumExp", None)}


@register(*REDUCTIONS)
def lower_reduce_ext(ctx, node, ins):
    """One aclnn reduction (module table)."""
    aclnn, p = REDUCTIONS[node.op_type]
    x = ins[0]
    plan = reduce_plan(ctx, node, x)
    if plan is None:
        return [ctx.view(x, node.outputs[0], x.shape)], []
    axes, keep, shape = plan
    out = ctx.alloc(node.outputs[0], shape, x.dtype)
    pre = [] if p is None else [scalar(node, p, np.float32)]
    return [out], [prepare(node, aclnn, x.tensor, *pre, opsnn.aclCreateIntArray(axes), keep, out.tensor)]
