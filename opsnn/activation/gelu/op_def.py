"""Definitions of aclnnGelu, aclnnGeluV2 and aclnnSilu: parameters in CANN order,
dtypes, shape inference. GeluV2's ``approximate`` defaults to 0 ("none", the erf
form), CANN's documented default (aclnnGeluV2, CANN 8.3 API reference)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from ...math.common.host import FLOAT16_32
from . import op_api
from .infershape import infer_same

GELU = OpDef("Gelu", (Param("self", INPUT), Param("out", OUTPUT)), infer=lambda self: infer_same(self),
             get_workspace_size=op_api.aclnnGeluGetWorkspaceSize, launch=op_api.aclnnGelu, dtypes=FLOAT16_32,
             doc="out = self * Phi(self) (erf form)")
GELU_V2 = OpDef("GeluV2", (Param("x", INPUT), Param("approximate", ATTRIBUTE, ATTR, default=0), Param("y", OUTPUT)),
                infer=lambda x, approximate=0: infer_same(x), get_workspace_size=op_api.aclnnGeluV2GetWorkspaceSize,
                launch=op_api.aclnnGeluV2, dtypes=FLOAT16_32,
                doc="y = gelu(x); approximate 0 the erf form, 1 the tanh form")
SILU = OpDef("Silu", (Param("self", INPUT), Param("out", OUTPUT)), infer=lambda self: infer_same(self),
             get_workspace_size=op_api.aclnnSiluGetWorkspaceSize, launch=op_api.aclnnSilu, dtypes=FLOAT16_32,
             doc="out = self * sigmoid(self)")

OP_DEFS = (GELU, GELU_V2, SILU)
