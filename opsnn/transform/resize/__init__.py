"""aclnnResize / aclnnResizeV2 (AIV kernel on the shared transform tiling,
``transform/common``). Layout: ``op_api``, ``op_def``, ``infershape``, ``tiling`` +
``tiling_data``, ``kernel`` (per-axis interpolation matrices and numpy body), ``golden``."""
from .op_api import aclnnResize, aclnnResizeGetWorkspaceSize, aclnnResizeV2, aclnnResizeV2GetWorkspaceSize

__all__ = ["aclnnResize", "aclnnResizeGetWorkspaceSize", "aclnnResizeV2", "aclnnResizeV2GetWorkspaceSize"]
