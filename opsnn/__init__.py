"""Operators in the CANN aclnn two-phase convention.

``from opsnn import aclnn`` (or ``import opsnn``) gives every entry point verbatim:
``ws, executor, ret = opsnn.aclnnMatmulGetWorkspaceSize(a, b, out, 0)`` then
``ret = opsnn.aclnnMatmul(workspace, ws, executor, stream)``.

The Pythonic side (:mod:`opsnn.pythonic`): ``opsnn.run_op(prepare, launch, *args)``
runs both phases on ``acl_runtime.DeviceArray`` arguments, ``opsnn.as_tensor``
gives a DeviceArray's aclTensor, and failures raise ``opsnn.OpError``.
"""
from . import aclnn
from .aclnn import *  # noqa: F401,F403
from .pythonic import OpError, as_tensor, run_op
from . import functional
from .functional import *  # noqa: F401,F403  (opsnn.softmax(x, dim) ... generated from each op's OpDef)
