"""Maximum, Minimum, Remainder (floor modulo) and Fmod, one table-driven family on the
elementwise AIV kernel (:mod:`..common`). Layout as the other families."""
from .op_api import (aclnnFmodScalar, aclnnFmodScalarGetWorkspaceSize, aclnnFmodTensor,
                     aclnnFmodTensorGetWorkspaceSize, aclnnMaximum, aclnnMaximumGetWorkspaceSize, aclnnMinimum,
                     aclnnMinimumGetWorkspaceSize, aclnnRemainderTensorScalar,
                     aclnnRemainderTensorScalarGetWorkspaceSize, aclnnRemainderTensorTensor,
                     aclnnRemainderTensorTensorGetWorkspaceSize)

__all__ = [n for n in dir() if n.startswith("aclnn")]
