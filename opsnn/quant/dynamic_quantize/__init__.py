"""aclnnDynamicQuantizeLinear: uint8 quantization of x with a scale and zero point
computed from x's range (two vector kernels). Layout as every op folder."""
from .op_api import aclnnDynamicQuantizeLinear, aclnnDynamicQuantizeLinearGetWorkspaceSize

__all__ = ["aclnnDynamicQuantizeLinear", "aclnnDynamicQuantizeLinearGetWorkspaceSize"]
