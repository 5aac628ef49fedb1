"""ReduceSum definition: parameters in CANN order, dtypes, shape inference (the shared
reduction signature and defaults, :mod:`opsnn.reduce.common.op_def`)."""
from __future__ import annotations

from ..common.op_def import reduce_op_def
from .op_api import SUM_SELF_TYPES, aclnnReduceSum, aclnnReduceSumGetWorkspaceSize

REDUCE_SUM = reduce_op_def("ReduceSum", aclnnReduceSumGetWorkspaceSize, aclnnReduceSum, SUM_SELF_TYPES,
                           "sum of ``self`` cast to ``dtype`` over ``dim``")

OP_DEFS = (REDUCE_SUM,)
