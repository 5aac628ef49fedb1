"""AvgPool2d (AIV vector kernel). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape``, ``tiling`` (the pooling strategies of ``opsnn.pooling.common``, whose
``tiling_data`` is the family's struct), ``kernel`` (numpy body), ``golden`` (float64
reference, tests only)."""
from .op_api import aclnnAvgPool2d, aclnnAvgPool2dGetWorkspaceSize

__all__ = ["aclnnAvgPool2d", "aclnnAvgPool2dGetWorkspaceSize"]
