"""Pad family: aclnnConstantPadNd, aclnnReflectionPad1d/2d/3d, aclnnReplicationPad1d/2d/3d,
aclnnCircularPad2d/3d (DMA kernel, shared ``transform/common``). Layout: ``op_api``,
``op_def``, ``infershape``, ``tiling`` + ``tiling_data``, ``kernel``, ``golden``."""
from .op_api import (aclnnCircularPad2d, aclnnCircularPad2dGetWorkspaceSize, aclnnCircularPad3d,
                     aclnnCircularPad3dGetWorkspaceSize, aclnnConstantPadNd, aclnnConstantPadNdGetWorkspaceSize,
                     aclnnReflectionPad1d, aclnnReflectionPad1dGetWorkspaceSize, aclnnReflectionPad2d,
                     aclnnReflectionPad2dGetWorkspaceSize, aclnnReflectionPad3d, aclnnReflectionPad3dGetWorkspaceSize,
                     aclnnReplicationPad1d, aclnnReplicationPad1dGetWorkspaceSize, aclnnReplicationPad2d,
                     aclnnReplicationPad2dGetWorkspaceSize, aclnnReplicationPad3d,
                     aclnnReplicationPad3dGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
