"""Mean definition: parameters in CANN order, dtypes, shape inference (the shared
reduction signature and defaults, :mod:`opsnn.reduce.common.op_def`)."""
from __future__ import annotations

from ...base.checks import FLOAT_TYPES_BF16
from ..common.op_def import reduce_op_def
from .op_api import aclnnMean, aclnnMeanGetWorkspaceSize

MEAN = reduce_op_def("Mean", aclnnMeanGetWorkspaceSize, aclnnMean, FLOAT_TYPES_BF16,
                     "mean of ``self`` cast to ``dtype`` over ``dim``")

OP_DEFS = (MEAN,)
