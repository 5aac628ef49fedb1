"""aclnnArange (AIV kernel on the shared transform tiling,
``transform/common``). Layout: ``op_api`` (entry points), ``op_def``, ``infershape``,
``tiling`` + ``tiling_data`` (host), ``kernel`` (numpy body), ``golden`` (tests only)."""
from .op_api import (aclnnArange, aclnnArangeGetWorkspaceSize)

__all__ = ['aclnnArange', 'aclnnArangeGetWorkspaceSize']
