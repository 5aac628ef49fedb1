"""GroupNorm definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnGroupNorm, aclnnGroupNormGetWorkspaceSize

def _infer(self, gamma=None, beta=None, N=0, C=0, HxW=0, group=1, eps=1e-5):  # noqa: N803
    return infer_shape(self[0], self[1], N, group)


GROUP_NORM = OpDef(
    "GroupNorm",
    (Param("self", INPUT), Param("gamma", INPUT, optional=True), Param("beta", INPUT, optional=True),
     Param("N", ATTRIBUTE, ATTR), Param("C", ATTRIBUTE, ATTR), Param("HxW", ATTRIBUTE, ATTR),
     Param("group", ATTRIBUTE, ATTR),
     # eps: no default in CANN's prototype; PyTorch's group_norm default 1e-5
     Param("eps", ATTRIBUTE, ATTR, default=1e-5),
     Param("out", OUTPUT), Param("meanOut", OUTPUT), Param("rstdOut", OUTPUT)),
    infer=_infer,
    get_workspace_size=aclnnGroupNormGetWorkspaceSize, launch=aclnnGroupNorm,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="group normalisation of ``self`` [N, C, ...] over ``group`` channel groups, scaled by gamma, shifted by beta",
)

OP_DEFS = (GROUP_NORM,)
