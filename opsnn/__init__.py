"""Operators in the CANN aclnn two-phase convention.

``from opsnn import aclnn`` (or ``import opsnn``) gives every entry point verbatim:
``ws, executor, ret = opsnn.aclnnMatmulGetWorkspaceSize(a, b, out, 0)`` then
``ret = opsnn.aclnnMatmul(workspace, ws, executor, stream)``.
"""
from . import aclnn
from .aclnn import *  # noqa: F401,F403
from . import functional
from .functional import *  # noqa: F401,F403  (opsnn.softmax(x, dim) ... generated from each op's OpDef)
