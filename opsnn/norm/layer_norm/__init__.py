"""LayerNorm (AIV vector kernels). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape``, ``tiling`` + ``tiling_data`` (host; strategies shared with RmsNorm in
``opsnn/norm/common``), ``kernel`` (tile programs and numpy bodies), ``golden``
(float64 reference, tests only)."""
from .op_api import aclnnLayerNorm, aclnnLayerNormGetWorkspaceSize

__all__ = ["aclnnLayerNorm", "aclnnLayerNormGetWorkspaceSize"]
