"""Gelu, GeluV2 and Silu: the unary activations, one table-driven family on the
elementwise AIV kernel (:mod:`opsnn.math.common`). Layout: ``op_api``, ``op_def``,
``infershape``, ``tiling`` + ``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import (aclnnGelu, aclnnGeluGetWorkspaceSize, aclnnGeluV2, aclnnGeluV2GetWorkspaceSize, aclnnSilu,
                     aclnnSiluGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
