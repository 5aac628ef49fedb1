"""Pointwise math (Erf, Sqrt, PowTensorScalar, PowTensorTensor, Clamp, ClampMin,
ClampMax, ClampTensor), one table-driven family on the AIV. Layout as
:mod:`opsnn.math.elementwise`: ``op_api``, ``op_def``, ``infershape``, ``tiling`` +
``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import (aclnnClamp, aclnnClampGetWorkspaceSize, aclnnClampMax, aclnnClampMaxGetWorkspaceSize,
                     aclnnClampMin, aclnnClampMinGetWorkspaceSize, aclnnClampTensor, aclnnClampTensorGetWorkspaceSize,
                     aclnnErf, aclnnErfGetWorkspaceSize, aclnnPowTensorScalar, aclnnPowTensorScalarGetWorkspaceSize,
                     aclnnPowTensorTensor, aclnnPowTensorTensorGetWorkspaceSize, aclnnSqrt, aclnnSqrtGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
