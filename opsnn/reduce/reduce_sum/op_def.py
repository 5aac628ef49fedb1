"""ReduceSum definition: parameters in CANN order, dtypes, shape inference.

Defaults: ``dim`` empty (every axis, torch's sum() with no dim) and ``keepDim`` False,
as torch.sum; ``dtype`` (the result dtype) has no default and is keyword-only in the
Pythonic function."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from ..common.infershape import infer_shape
from .op_api import SUM_SELF_TYPES, aclnnReduceSum, aclnnReduceSumGetWorkspaceSize

REDUCE_SUM = OpDef(
    "ReduceSum",
    (Param("self", INPUT), Param("dim", ATTRIBUTE, INT_ARRAY, default=()),
     Param("keepDim", ATTRIBUTE, ATTR, default=False), Param("dtype", ATTRIBUTE, ATTR), Param("out", OUTPUT)),
    infer=lambda self, dim, keepDim, dtype: infer_shape(self[0], dim, keepDim, dtype),  # noqa: N803
    get_workspace_size=aclnnReduceSumGetWorkspaceSize, launch=aclnnReduceSum,
    dtypes=SUM_SELF_TYPES, doc="sum of ``self`` cast to ``dtype`` over ``dim``",
)

OP_DEFS = (REDUCE_SUM,)
