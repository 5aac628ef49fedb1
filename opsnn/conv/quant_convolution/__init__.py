"""aclnnQuantConvolution: int8 x int8 2-D convolution on the Cube (int32 accumulation in
L0C), the dequant/requant scale applied by FixPipe as L0C drains to GM. Layout:
``op_api`` (aclnn entry points), ``op_def``, ``tiling`` + ``tiling_data`` (host),
``kernel`` (tile program and numpy body), ``golden`` (int64 / float64 reference, tests
only). Shapes and the implicit-GEMM tiling are the float convolution's
(``opsnn.conv.convolution``)."""
from .op_api import aclnnQuantConvolution, aclnnQuantConvolutionGetWorkspaceSize

__all__ = ["aclnnQuantConvolution", "aclnnQuantConvolutionGetWorkspaceSize"]
