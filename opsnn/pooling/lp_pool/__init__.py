"""LpPool (npu-sim's aclnnLpPool: CANN has no Lp pooling operator). Layout: ``op_api``,
``op_def``, ``infershape``, ``tiling``, ``kernel``, ``golden`` (tests only)."""
from .op_api import aclnnLpPool, aclnnLpPoolGetWorkspaceSize

__all__ = ["aclnnLpPool", "aclnnLpPoolGetWorkspaceSize"]
