"""Cat (AIV vector kernel, DMA only). Layout: ``op_api`` (aclnn entry points),
``op_def`` (``tensors`` is an aclTensorList), ``infershape`` (shape and dtype
promotion), ``tiling`` + ``tiling_data`` (host), ``kernel`` (tile program and numpy
body). The golden is numpy's concatenate (in the tests)."""
from .op_api import aclnnCat, aclnnCatGetWorkspaceSize

__all__ = ["aclnnCat", "aclnnCatGetWorkspaceSize"]
