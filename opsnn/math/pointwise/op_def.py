"""Definitions of the pointwise-math entry points: parameters in CANN order, dtypes,
shape inference. Clamp's bounds are optional in CANN (``clipValueMin`` /
``clipValueMax`` may be null, aclnn_clamp.h), so they default to None here; at least
one must be given."""
from __future__ import annotations

from ...base.op_def import ATTRIBUTE, INPUT, OUTPUT, SCALAR, OpDef, Param
from ...base.promotion import ALL_TYPES
from . import op_api
from .infershape import infer_binary, infer_clamp, infer_clamp_tensor, infer_float_unary
from .op_api import NUMERIC_TYPES


def _def(op_type: str, params, infer, dtypes, doc: str) -> OpDef:
    return OpDef(op_type, tuple(params) + (Param("out", OUTPUT),), infer=infer,
                 get_workspace_size=getattr(op_api, f"aclnn{op_type}GetWorkspaceSize"),
                 launch=getattr(op_api, f"aclnn{op_type}"), dtypes=dtypes, doc=doc)


_SELF = Param("self", INPUT)
_LO = Param("clipValueMin", ATTRIBUTE, SCALAR, optional=True, default=None)
_HI = Param("clipValueMax", ATTRIBUTE, SCALAR, optional=True, default=None)

OP_DEFS = (
    _def("Erf", [_SELF], lambda self: infer_float_unary(self), ALL_TYPES, "out = erf(self)"),
    _def("Sqrt", [_SELF], lambda self: infer_float_unary(self), ALL_TYPES, "out = sqrt(self)"),
    _def("PowTensorScalar", [_SELF, Param("exponent", INPUT, SCALAR)],
         lambda self, exponent: infer_binary(self, exponent, scalar=True), ALL_TYPES,  # CANN: BOOL self too
         "out = self ** exponent, ``exponent`` an aclScalar"),
    _def("PowTensorTensor", [_SELF, Param("exponent", INPUT)],
         lambda self, exponent: infer_binary(self, exponent), ALL_TYPES,  # CANN: BOOL self, not both BOOL
         "out = self ** exponent, broadcasting"),
    _def("Clamp", [_SELF, _LO, _HI],
         lambda self, clipValueMin=None, clipValueMax=None: infer_clamp(self, clipValueMin, clipValueMax),  # noqa: N803
         NUMERIC_TYPES, "out = min(max(self, clipValueMin), clipValueMax); either bound may be None"),
    _def("ClampMin", [_SELF, Param("clipValueMin", ATTRIBUTE, SCALAR)],
         lambda self, clipValueMin: infer_clamp(self, clipValueMin), NUMERIC_TYPES,  # noqa: N803
         "out = max(self, clipValueMin)"),
    _def("ClampMax", [_SELF, Param("clipValueMax", ATTRIBUTE, SCALAR)],
         lambda self, clipValueMax: infer_clamp(self, clipValueMax), NUMERIC_TYPES,  # noqa: N803
         "out = min(self, clipValueMax)"),
    _def("ClampTensor",
         [_SELF, Param("clipValueMin", INPUT, optional=True), Param("clipValueMax", INPUT, optional=True)],
         lambda self, clipValueMin=None, clipValueMax=None: infer_clamp_tensor(self, clipValueMin,  # noqa: N803
                                                                               clipValueMax),
         NUMERIC_TYPES, "out = min(max(self, clipValueMin), clipValueMax) with tensor bounds, broadcasting"),
)
