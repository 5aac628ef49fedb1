"""FusedElementwise: a chain of pointwise ops as one vector kernel, intermediates in
UB (npu-sim graph mode). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``infershape``, ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile program and numpy
body), ``golden`` (float64 reference, tests only)."""
from .op_api import aclnnFusedElementwise, aclnnFusedElementwiseGetWorkspaceSize

__all__ = ["aclnnFusedElementwise", "aclnnFusedElementwiseGetWorkspaceSize"]
