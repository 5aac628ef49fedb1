"""The extra reductions (Amax, Amin, ReduceProd, ReduceSumSquare, Norm, ReduceLogSum,
LogSumExp), one table-driven family on the reduce family tile program
(:mod:`..common`). Layout: ``op_api`` (row table, generated entry points), ``op_def``,
``infershape``, ``tiling`` + ``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import (aclnnAmax, aclnnAmaxGetWorkspaceSize, aclnnAmin, aclnnAminGetWorkspaceSize, aclnnLogSumExp,
                     aclnnLogSumExpGetWorkspaceSize, aclnnNorm, aclnnNormGetWorkspaceSize, aclnnReduceLogSum,
                     aclnnReduceLogSumGetWorkspaceSize, aclnnReduceProd, aclnnReduceProdGetWorkspaceSize,
                     aclnnReduceSumSquare, aclnnReduceSumSquareGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
