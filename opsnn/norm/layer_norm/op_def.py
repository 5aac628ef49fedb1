"""LayerNorm definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnLayerNorm, aclnnLayerNormGetWorkspaceSize


def _infer(input, normalizedShape, weightOptional=None, biasOptional=None, eps=1e-5):  # noqa: A002,N803
    return infer_shape(input[0], input[1], normalizedShape)


LAYER_NORM = OpDef(
    "LayerNorm",
    (Param("input", INPUT), Param("normalizedShape", ATTRIBUTE, INT_ARRAY),
     Param("weightOptional", INPUT, optional=True), Param("biasOptional", INPUT, optional=True),
     # eps: CANN's aclnn doc gives no default; 1e-5 is that of the framework call it
     # serves (torch.nn.functional.layer_norm / at::layer_norm, eps = 1e-05)
     Param("eps", ATTRIBUTE, ATTR, default=1e-5),
     Param("out", OUTPUT), Param("meanOutOptional", OUTPUT, optional=True),
     Param("rstdOutOptional", OUTPUT, optional=True)),
    infer=_infer,
    get_workspace_size=aclnnLayerNormGetWorkspaceSize, launch=aclnnLayerNorm,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="layer normalisation of ``input`` over its trailing ``normalized_shape`` axes",
)

OP_DEFS = (LAYER_NORM,)
