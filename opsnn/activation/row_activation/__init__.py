"""Row activations along one dim: LogSoftmax (aclnnLogSoftmax) and Hardmax
(aclnnHardmax). Layout: ``op_api``, ``op_def``, ``infershape``, ``tiling`` +
``tiling_data``, ``kernel``, ``golden`` (tests only)."""
from .op_api import aclnnHardmax, aclnnHardmaxGetWorkspaceSize, aclnnLogSoftmax, aclnnLogSoftmaxGetWorkspaceSize

__all__ = ["aclnnHardmax", "aclnnHardmaxGetWorkspaceSize", "aclnnLogSoftmax", "aclnnLogSoftmaxGetWorkspaceSize"]
