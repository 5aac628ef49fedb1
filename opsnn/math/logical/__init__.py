"""Logical (And, Or, Xor, Not) and bitwise (And, Or, Xor, Not) ops, one table-driven
family on the elementwise AIV kernel (:mod:`..common`). Layout as the other families."""
from .op_api import (aclnnBitwiseAndTensor, aclnnBitwiseAndTensorGetWorkspaceSize, aclnnBitwiseNot,
                     aclnnBitwiseNotGetWorkspaceSize, aclnnBitwiseOrTensor, aclnnBitwiseOrTensorGetWorkspaceSize,
                     aclnnBitwiseXorTensor, aclnnBitwiseXorTensorGetWorkspaceSize, aclnnLogicalAnd,
                     aclnnLogicalAndGetWorkspaceSize, aclnnLogicalNot, aclnnLogicalNotGetWorkspaceSize,
                     aclnnLogicalOr, aclnnLogicalOrGetWorkspaceSize, aclnnLogicalXor,
                     aclnnLogicalXorGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
