"""Definitions of the selection and comparison entry points: parameters in CANN
order, dtypes, shape inference."""
from __future__ import annotations

from ...base.op_def import INPUT, OUTPUT, SCALAR, OpDef, Param
from ...base.promotion import ALL_TYPES
from . import op_api
from .infershape import infer_eq, infer_equal, infer_where


def _def(op_type: str, params, infer, doc: str) -> OpDef:
    return OpDef(op_type, tuple(params) + (Param("out", OUTPUT),), infer=infer,
                 get_workspace_size=getattr(op_api, f"aclnn{op_type}GetWorkspaceSize"),
                 launch=getattr(op_api, f"aclnn{op_type}"), dtypes=ALL_TYPES, doc=doc)


_WHERE = [Param("condition", INPUT), Param("self", INPUT), Param("other", INPUT)]
_PAIR = [Param("self", INPUT), Param("other", INPUT)]

OP_DEFS = (
    _def("SWhere", _WHERE, infer_where, "out = condition ? self : other, broadcasting"),
    _def("Where", _WHERE, infer_where, "out = condition ? self : other (aclnnSWhere under issue #5's name)"),
    _def("EqTensor", _PAIR, lambda self, other: infer_eq(self, other), "out = (self == other) elementwise"),
    _def("EqScalar", [Param("self", INPUT), Param("other", INPUT, SCALAR)],
         lambda self, other: infer_eq(self, other, scalar=True), "out = (self == other), ``other`` an aclScalar"),
    _def("Equal", _PAIR, infer_equal, "out = torch.equal(self, other): one bool"),
)
