"""Selection and comparison (SWhere and its alias Where, EqTensor, EqScalar, Equal),
one table-driven family on the AIV. Layout as :mod:`opsnn.math.elementwise`:
``op_api``, ``op_def``, ``infershape``, ``tiling`` + ``tiling_data``, ``kernel``,
``golden`` (tests only)."""
from .op_api import (aclnnEqScalar, aclnnEqScalarGetWorkspaceSize, aclnnEqTensor, aclnnEqTensorGetWorkspaceSize,
                     aclnnEqual, aclnnEqualGetWorkspaceSize, aclnnSWhere, aclnnSWhereGetWorkspaceSize, aclnnWhere,
                     aclnnWhereGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
