"""Definitions of aclnnLogSoftmax and aclnnHardmax: ``(self, dim, out)`` in CANN order
(``dim`` required, as in CANN's prototype)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from ...base.promotion import FLOATS
from . import op_api
from .infershape import infer_row


def _def(op_type: str, doc: str) -> OpDef:
    return OpDef(op_type, (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR), Param("out", OUTPUT)),
                 infer=lambda self, dim: infer_row(self, dim),
                 get_workspace_size=getattr(op_api, f"aclnn{op_type}GetWorkspaceSize"),
                 launch=getattr(op_api, f"aclnn{op_type}"), dtypes=FLOATS, doc=doc)


OP_DEFS = (_def("LogSoftmax", "log(softmax(self)) along dim"),
           _def("Hardmax", "1 at the first maximum of self along dim, else 0 (not a CANN op)"))
