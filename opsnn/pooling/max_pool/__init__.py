"""MaxPool2dWithIndices and MaxPool (ONNX-style), one tight family: one host
(``op_api``: both entry points), ``op_def``, ``infershape``, ``tiling`` (the pooling
strategies of ``opsnn.pooling.common``, whose ``tiling_data`` is the family's
struct), ``kernel`` (numpy body) and ``golden`` (float64 reference, tests only)."""
from .op_api import (aclnnMaxPool, aclnnMaxPool2dWithIndices, aclnnMaxPool2dWithIndicesGetWorkspaceSize,
                     aclnnMaxPoolGetWorkspaceSize)

__all__ = ["aclnnMaxPool", "aclnnMaxPool2dWithIndices", "aclnnMaxPool2dWithIndicesGetWorkspaceSize",
           "aclnnMaxPoolGetWorkspaceSize"]
