"""3-D pooling: aclnnMaxPool3dWithArgmax and aclnnAvgPool3d, each two separable passes
of the family's 2-D pooling kernel (``tiling.py``). Layout: ``op_api``, ``op_def``,
``infershape``, ``tiling`` + ``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import (aclnnAvgPool3d, aclnnAvgPool3dGetWorkspaceSize, aclnnMaxPool3dWithArgmax,
                     aclnnMaxPool3dWithArgmaxGetWorkspaceSize)

__all__ = ["aclnnMaxPool3dWithArgmax", "aclnnMaxPool3dWithArgmaxGetWorkspaceSize", "aclnnAvgPool3d",
           "aclnnAvgPool3dGetWorkspaceSize"]
