"""SwiGlu (AIV vector kernel). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape``, ``tiling`` + ``tiling_data`` (host, the elementwise family's streaming
tiling), ``kernel`` (compute), ``golden`` (float64 reference, tests only)."""
from .op_api import aclnnSwiGlu, aclnnSwiGluGetWorkspaceSize

__all__ = ["aclnnSwiGlu", "aclnnSwiGluGetWorkspaceSize"]
