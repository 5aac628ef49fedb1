"""BatchNorm definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnBatchNorm, aclnnBatchNormGetWorkspaceSize

BATCH_NORM = OpDef(
    "BatchNorm",
    (Param("input", INPUT), Param("weight", INPUT, optional=True), Param("bias", INPUT, optional=True),
     Param("runningMean", INPUT), Param("runningVar", INPUT),
     # training / momentum / eps: the defaults of the framework call aclnnBatchNorm
     # serves (torch.nn.functional.batch_norm: training=False, momentum=0.1, eps=1e-5);
     # the aclnn C prototype itself has no defaults
     Param("training", ATTRIBUTE, ATTR, default=False), Param("momentum", ATTRIBUTE, ATTR, default=0.1),
     Param("eps", ATTRIBUTE, ATTR, default=1e-5),
     Param("output", OUTPUT), Param("saveMean", OUTPUT, optional=True), Param("saveInvstd", OUTPUT, optional=True)),
    infer=lambda input, training=False, **_: infer_shape(input[0], input[1], training=bool(training)),  # noqa: A002
    get_workspace_size=aclnnBatchNormGetWorkspaceSize, launch=aclnnBatchNorm,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="batch normalisation of ``input`` per channel (dim 1): running statistics at inference, batch "
        "statistics (and in-place running-stat update) with training=True",
)

OP_DEFS = (BATCH_NORM,)
