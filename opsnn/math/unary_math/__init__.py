"""Unary math (Exp, Log, Abs, Neg, Reciprocal, Rsqrt, Floor, Ceil, Round, Sign, the
trigonometric and hyperbolic functions and their inverses, IsNan, IsInf), one
table-driven family on the elementwise AIV kernel (:mod:`..common`). Layout: ``op_api``
(row table, generated entry points), ``op_def``, ``infershape``, ``tiling`` +
``tiling_data`` (cost table), ``kernel``, ``golden`` (tests only)."""
from .op_api import (aclnnAbs, aclnnAbsGetWorkspaceSize, aclnnAcos, aclnnAcosGetWorkspaceSize, aclnnAcosh,
                     aclnnAcoshGetWorkspaceSize, aclnnAsin, aclnnAsinGetWorkspaceSize, aclnnAsinh,
                     aclnnAsinhGetWorkspaceSize, aclnnAtan, aclnnAtanGetWorkspaceSize, aclnnAtanh,
                     aclnnAtanhGetWorkspaceSize, aclnnCeil, aclnnCeilGetWorkspaceSize, aclnnCos,
                     aclnnCosGetWorkspaceSize, aclnnCosh, aclnnCoshGetWorkspaceSize, aclnnExp,
                     aclnnExpGetWorkspaceSize, aclnnFloor, aclnnFloorGetWorkspaceSize, aclnnIsInf,
                     aclnnIsInfGetWorkspaceSize, aclnnIsNan, aclnnIsNanGetWorkspaceSize, aclnnIsNegInf,
                     aclnnIsNegInfGetWorkspaceSize, aclnnIsPosInf, aclnnIsPosInfGetWorkspaceSize, aclnnLog,
                     aclnnLogGetWorkspaceSize, aclnnNeg, aclnnNegGetWorkspaceSize, aclnnReciprocal,
                     aclnnReciprocalGetWorkspaceSize, aclnnRound, aclnnRoundGetWorkspaceSize, aclnnRsqrt,
                     aclnnRsqrtGetWorkspaceSize, aclnnSign, aclnnSignGetWorkspaceSize, aclnnSin,
                     aclnnSinGetWorkspaceSize, aclnnSinh, aclnnSinhGetWorkspaceSize, aclnnTan,
                     aclnnTanGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
