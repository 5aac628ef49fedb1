"""Comparisons (Gt, Ge, Lt, Le, Ne; tensor and scalar forms), one table-driven family
on the elementwise AIV kernel (:mod:`..common`). Layout: ``op_api`` (row table,
generated entry points), ``op_def``, ``infershape``, ``tiling`` + ``tiling_data``,
``kernel``, ``golden`` (tests only)."""
from .op_api import (aclnnGeScalar, aclnnGeScalarGetWorkspaceSize, aclnnGeTensor, aclnnGeTensorGetWorkspaceSize,
                     aclnnGtScalar, aclnnGtScalarGetWorkspaceSize, aclnnGtTensor, aclnnGtTensorGetWorkspaceSize,
                     aclnnLeScalar, aclnnLeScalarGetWorkspaceSize, aclnnLeTensor, aclnnLeTensorGetWorkspaceSize,
                     aclnnLtScalar, aclnnLtScalarGetWorkspaceSize, aclnnLtTensor, aclnnLtTensorGetWorkspaceSize,
                     aclnnNeScalar, aclnnNeScalarGetWorkspaceSize, aclnnNeTensor, aclnnNeTensorGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
