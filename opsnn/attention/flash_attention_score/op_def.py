"""FlashAttentionScore definition: parameters in CANN order, dtypes, shape inference.

No attribute has a default: CANN's prototype gives none (torch_npu's
``npu_fusion_attention`` wrapper supplies scale=1, keep_prob=1, pre/next tokens
2147483647, inner_precise=0, sparse_mode=0, but those are the wrapper's, not aclnn's);
only the ``...Optional`` inputs and ``softmaxOutOut`` may be null.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType
from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnFlashAttentionScore, aclnnFlashAttentionScoreGetWorkspaceSize

def _infer(query, key, value, headNum, inputLayout, **_attrs):  # noqa: N803
    """[softmaxMaxOut, softmaxSumOut, attentionOutOut]; the optional inputs and the
    other attributes do not change them."""
    return infer_shape(query[0], query[1], key[0], value[0], headNum, inputLayout)


FLASH_ATTENTION_SCORE = OpDef(
    "FlashAttentionScore",
    (Param("query", INPUT), Param("key", INPUT), Param("value", INPUT),
     Param("realShiftOptional", INPUT, optional=True), Param("dropMaskOptional", INPUT, optional=True),
     Param("paddingMaskOptional", INPUT, optional=True), Param("attenMaskOptional", INPUT, optional=True),
     Param("prefixOptional", ATTRIBUTE, INT_ARRAY, optional=True),
     Param("scaleValue", ATTRIBUTE, ATTR), Param("keepProb", ATTRIBUTE, ATTR), Param("preTokens", ATTRIBUTE, ATTR),
     Param("nextTokens", ATTRIBUTE, ATTR), Param("headNum", ATTRIBUTE, ATTR), Param("inputLayout", ATTRIBUTE, ATTR),
     Param("innerPrecise", ATTRIBUTE, ATTR), Param("sparseMode", ATTRIBUTE, ATTR),
     Param("softmaxMaxOut", OUTPUT), Param("softmaxSumOut", OUTPUT), Param("softmaxOutOut", OUTPUT, optional=True),
     Param("attentionOutOut", OUTPUT)),
    infer=_infer, get_workspace_size=aclnnFlashAttentionScoreGetWorkspaceSize, launch=aclnnFlashAttentionScore,
    dtypes=(aclDataType.ACL_FLOAT16, aclDataType.ACL_BF16, aclDataType.ACL_FLOAT),
    doc="fused attention: softmax(mask(scale * (pse + query @ key^T))) @ value, with the row max and sum",
)

OP_DEFS = (FLASH_ATTENTION_SCORE,)
