"""aclnnQuantize: out = saturate(round(x / scales + zeroPoints)) per element (vector
kernel). Layout as every op folder (op_api, op_def, infershape, tiling + tiling_data,
kernel, golden)."""
from .op_api import aclnnQuantize, aclnnQuantizeBlock, aclnnQuantizeBlockGetWorkspaceSize, aclnnQuantizeGetWorkspaceSize

__all__ = ["aclnnQuantize", "aclnnQuantizeGetWorkspaceSize", "aclnnQuantizeBlock",
           "aclnnQuantizeBlockGetWorkspaceSize"]
