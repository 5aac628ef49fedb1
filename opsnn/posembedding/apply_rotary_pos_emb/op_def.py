"""ApplyRotaryPosEmb definition: parameters in CANN order, dtypes, shape inference."""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OpDef, Param
from .op_api import aclnnApplyRotaryPosEmb, aclnnApplyRotaryPosEmbGetWorkspaceSize

APPLY_ROTARY_POS_EMB = OpDef(
    "ApplyRotaryPosEmb",
    (Param("queryRef", INPUT), Param("keyRef", INPUT, optional=True), Param("cos", INPUT), Param("sin", INPUT),
     # layout: 1 = BSND, the only value listed (CANN aclnnApplyRotaryPosEmb doc, 8.0 aolapi reference)
     Param("layout", ATTRIBUTE, ATTR, default=1)),
    # in place: no OUTPUT parameters (queryRef and keyRef keep their shapes, ``infer_shape``)
    infer=lambda queryRef, cos, sin, keyRef=None, layout=1: [],  # noqa: N803
    get_workspace_size=aclnnApplyRotaryPosEmbGetWorkspaceSize, launch=aclnnApplyRotaryPosEmb,
    dtypes=(aclDataType.ACL_FLOAT, aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16),
    doc="rotary position embedding of ``queryRef`` and ``keyRef`` in place (rotate_half form, layout BSND)",
    inplace="queryRef",
)

OP_DEFS = (APPLY_ROTARY_POS_EMB,)
