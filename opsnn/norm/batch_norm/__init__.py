"""BatchNorm, inference (AIV vector kernel). Layout: ``op_api`` (aclnn entry points),
``op_def``, ``infershape``, ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile program
and numpy body), ``golden`` (float64 reference, tests only)."""
from .op_api import aclnnBatchNorm, aclnnBatchNormGetWorkspaceSize

__all__ = ["aclnnBatchNorm", "aclnnBatchNormGetWorkspaceSize"]
