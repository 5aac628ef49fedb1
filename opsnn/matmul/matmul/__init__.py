"""Matmul, Mm, BatchMatMul and Addmm (AIC cube kernels), one folder driven by one host
and one kernel module: the four differ only in their rank checks and Addmm's bias.
Layout: ``op_api`` (aclnn entry points), ``op_def``, ``infershape``, ``tiling`` +
``tiling_data`` (host), ``kernel`` (tile program and numpy body), ``golden`` (float64
reference, tests only)."""
from .op_api import (aclnnAddmm, aclnnAddmmGetWorkspaceSize, aclnnBatchMatMul, aclnnBatchMatMulGetWorkspaceSize,
                     aclnnFusedMatmul, aclnnFusedMatmulGetWorkspaceSize, aclnnMatmul, aclnnMatmulGetWorkspaceSize,
                     aclnnMm, aclnnMmGetWorkspaceSize)

__all__ = ["aclnnAddmm", "aclnnAddmmGetWorkspaceSize", "aclnnBatchMatMul", "aclnnBatchMatMulGetWorkspaceSize",
           "aclnnMatmul", "aclnnMatmulGetWorkspaceSize", "aclnnMm", "aclnnMmGetWorkspaceSize",
           "aclnnFusedMatmul", "aclnnFusedMatmulGetWorkspaceSize"]
