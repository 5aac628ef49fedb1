"""Convolution (AIC cube kernel, implicit GEMM). Layout: ``op_api`` (aclnn entry points),
``op_def``, ``infershape``, ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile program
and numpy body), ``golden`` (float64 reference, tests only)."""
from .op_api import (aclnnConvolution, aclnnConvolutionGetWorkspaceSize, aclnnFusedConvolution,
                     aclnnFusedConvolutionGetWorkspaceSize)

__all__ = ["aclnnConvolution", "aclnnConvolutionGetWorkspaceSize", "aclnnFusedConvolution",
           "aclnnFusedConvolutionGetWorkspaceSize"]
