"""Cast (any dtype to any dtype) on the elementwise family's AIV kernel. Layout as
:mod:`opsnn.math.elementwise`: ``op_api``, ``op_def``, ``infershape``, ``tiling`` +
``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import aclnnCast, aclnnCastGetWorkspaceSize

__all__ = ["aclnnCast", "aclnnCastGetWorkspaceSize"]
