"""aclnnEinsum (AIV kernel on the shared transform tiling, ``transform/common``).
Layout: ``op_api``, ``op_def``, ``infershape`` (equation parsing), ``tiling`` +
``tiling_data``, ``kernel``, ``golden``."""
from .op_api import aclnnEinsum, aclnnEinsumGetWorkspaceSize

__all__ = ["aclnnEinsum", "aclnnEinsumGetWorkspaceSize"]
