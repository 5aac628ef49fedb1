"""aclnnDequantizeLinear: out = (x - zeroPoint) * scale per element (vector kernel).
Layout as every op folder."""
from .op_api import (aclnnDequantizeLinear, aclnnDequantizeLinearBlock, aclnnDequantizeLinearBlockGetWorkspaceSize,
                     aclnnDequantizeLinearGetWorkspaceSize)

__all__ = ["aclnnDequantizeLinear", "aclnnDequantizeLinearGetWorkspaceSize", "aclnnDequantizeLinearBlock",
           "aclnnDequantizeLinearBlockGetWorkspaceSize"]
