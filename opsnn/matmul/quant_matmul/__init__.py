"""aclnnQuantMatmulV4: int8 x int8 GEMM on the Cube (int32 accumulation in L0C) with the
dequant scale applied by FixPipe on the way out. Layout: ``op_api`` (aclnn entry
points), ``op_def``, ``infershape``, ``tiling`` + ``tiling_data`` (host), ``kernel``
(tile program and numpy body), ``golden`` (float64/int64 reference, tests only)."""
from .op_api import aclnnQuantMatmulV4, aclnnQuantMatmulV4GetWorkspaceSize

__all__ = ["aclnnQuantMatmulV4", "aclnnQuantMatmulV4GetWorkspaceSize"]
