"""PRelu (aclnnPrelu) on the elementwise AIV kernel. Layout: ``op_api``, ``op_def``,
``infershape``, ``tiling`` + ``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import aclnnPrelu, aclnnPreluGetWorkspaceSize

__all__ = ["aclnnPrelu", "aclnnPreluGetWorkspaceSize"]
