"""GroupNorm (AIV vector kernels) on the row-norm tiling shared with LayerNorm and
RmsNorm (``opsnn/norm/common``). Layout: ``op_api``, ``op_def``, ``infershape``,
``tiling`` + ``tiling_data``, ``kernel``, ``golden`` (tests only). ONNX's
InstanceNormalization lowers onto it with ``group = C``."""
from .op_api import aclnnGroupNorm, aclnnGroupNormGetWorkspaceSize

__all__ = ["aclnnGroupNorm", "aclnnGroupNormGetWorkspaceSize"]
