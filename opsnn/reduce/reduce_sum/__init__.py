"""ReduceSum (AIV vector kernel). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``golden`` (float64 reference, tests only); host, infershape, tiling and kernel are
shared with Mean in ``opsnn.reduce.common``."""
from .op_api import aclnnReduceSum, aclnnReduceSumGetWorkspaceSize

__all__ = ["aclnnReduceSum", "aclnnReduceSumGetWorkspaceSize"]
