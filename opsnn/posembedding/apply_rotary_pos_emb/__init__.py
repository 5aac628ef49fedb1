"""ApplyRotaryPosEmb (AIV vector kernel, in place on query and key). Layout: ``op_api``
(aclnn entry points), ``op_def``, ``infershape``, ``tiling`` + ``tiling_data`` (host),
``kernel`` (tile program and numpy body), ``golden`` (float64 reference, tests only)."""
from .op_api import aclnnApplyRotaryPosEmb, aclnnApplyRotaryPosEmbGetWorkspaceSize

__all__ = ["aclnnApplyRotaryPosEmb", "aclnnApplyRotaryPosEmbGetWorkspaceSize"]
