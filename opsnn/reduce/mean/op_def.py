"""Mean definition: parameters in CANN order, dtypes, shape inference.

Defaults: ``dim`` empty (every axis) and ``keepDim`` False, as torch.mean; ``dtype``
(the result dtype) has no default and is keyword-only in the Pythonic function."""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from ..common.infershape import infer_shape
from .op_api import aclnnMean, aclnnMeanGetWorkspaceSize

MEAN = OpDef(
    "Mean",
    (Param("self", INPUT), Param("dim", ATTRIBUTE, INT_ARRAY, default=()),
     Param("keepDim", ATTRIBUTE, ATTR, default=False), Param("dtype", ATTRIBUTE, ATTR), Param("out", OUTPUT)),
    infer=lambda self, dim, keepDim, dtype: infer_shape(self[0], dim, keepDim, dtype),  # noqa: N803
    get_workspace_size=aclnnMeanGetWorkspaceSize, launch=aclnnMean,
    dtypes=FLOAT_TYPES_BF16, doc="mean of ``self`` cast to ``dtype`` over ``dim``",
)

OP_DEFS = (MEAN,)
