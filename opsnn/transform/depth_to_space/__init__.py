"""aclnnDepthToSpace / aclnnSpaceToDepth (AIV kernel on the shared transform tiling,
``transform/common``). Layout: ``op_api`` (entry points), ``op_def``, ``infershape``,
``tiling`` + ``tiling_data`` (host), ``kernel`` (numpy body), ``golden`` (tests only)."""
from .op_api import (aclnnDepthToSpace, aclnnDepthToSpaceGetWorkspaceSize,
                     aclnnSpaceToDepth, aclnnSpaceToDepthGetWorkspaceSize)

__all__ = ['aclnnDepthToSpace', 'aclnnDepthToSpaceGetWorkspaceSize', 'aclnnSpaceToDepth',
           'aclnnSpaceToDepthGetWorkspaceSize']
