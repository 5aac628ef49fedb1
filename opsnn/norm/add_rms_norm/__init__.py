"""AddRmsNorm (AIV vector kernels). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape``, ``tiling`` + ``tiling_data`` (host: fused and multi-pass strategies),
``kernel`` (tile programs and numpy bodies), ``golden`` (float64 reference, tests only)."""
from .op_api import aclnnAddRmsNorm, aclnnAddRmsNormGetWorkspaceSize

__all__ = ["aclnnAddRmsNorm", "aclnnAddRmsNormGetWorkspaceSize"]
