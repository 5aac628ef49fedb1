"""Mean (AIV vector kernel). Layout: ``op_api`` (aclnn entry points), ``op_def``,
``golden`` (float64 reference, tests only); host, infershape, tiling and kernel are
shared with ReduceSum in ``opsnn.reduce.common``."""
from .op_api import aclnnMean, aclnnMeanGetWorkspaceSize

__all__ = ["aclnnMean", "aclnnMeanGetWorkspaceSize"]
