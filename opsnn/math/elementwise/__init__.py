"""Binary arithmetic (Add, Sub, Mul, Div: tensor, scalar and in-place forms) and Relu,
one table-driven family on the AIV (STYLE.md section 3). Layout: ``op_api`` (aclnn
entry points), ``op_def``, ``infershape``, ``tiling`` + ``tiling_data`` (host, cost
table), ``kernel`` (numpy computes; the tile program is :mod:`..common.kernel`),
``golden`` (float64 references, tests only)."""
from .op_api import (aclnnAdd, aclnnAddGetWorkspaceSize, aclnnAdds, aclnnAddsGetWorkspaceSize, aclnnDiv,
                     aclnnDivGetWorkspaceSize, aclnnDivs, aclnnDivsGetWorkspaceSize, aclnnInplaceAdd,
                     aclnnInplaceAddGetWorkspaceSize, aclnnInplaceAdds, aclnnInplaceAddsGetWorkspaceSize,
                     aclnnInplaceDiv, aclnnInplaceDivGetWorkspaceSize, aclnnInplaceDivs,
                     aclnnInplaceDivsGetWorkspaceSize, aclnnInplaceMul, aclnnInplaceMulGetWorkspaceSize,
                     aclnnInplaceMuls, aclnnInplaceMulsGetWorkspaceSize, aclnnInplaceRelu,
                     aclnnInplaceReluGetWorkspaceSize, aclnnInplaceSub, aclnnInplaceSubGetWorkspaceSize,
                     aclnnInplaceSubs, aclnnInplaceSubsGetWorkspaceSize, aclnnMul, aclnnMulGetWorkspaceSize,
                     aclnnMuls, aclnnMulsGetWorkspaceSize, aclnnRelu, aclnnReluGetWorkspaceSize, aclnnSub,
                     aclnnSubGetWorkspaceSize, aclnnSubs, aclnnSubsGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
