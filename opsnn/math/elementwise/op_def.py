"""Definitions of the elementwise-arithmetic entry points: parameters in CANN order,
dtypes, shape inference (:mod:`opsnn.base.op_def`).

``alpha`` is a required ``const aclScalar*`` in CANN's prototypes (aclnn_add.h,
aclnn_sub.h); its default 1 here is the value for which the formulas reduce to plain
``self + other`` (the ``torch.add`` default the aclnn op implements).
"""
from __future__ import annotations

from ...base.op_def import ATTRIBUTE, INPUT, OUTPUT, SCALAR, TENSOR, OpDef, Param
from .infershape import infer_binary, infer_same
from . import op_api
from .op_api import ARITH_TYPES, RELU_TYPES

_FORMULA = {"Add": "self + alpha * other", "Sub": "self - alpha * other", "Mul": "self * other",
            "Div": "self / other"}


def _binary(op: str, *, scalar: bool, inplace: bool) -> OpDef:
    op_type = ("Inplace" if inplace else "") + op + ("s" if scalar else "")
    first = "selfRef" if inplace else "self"
    params = [Param(first, INPUT), Param("other", INPUT, SCALAR if scalar else TENSOR)]
    if op in ("Add", "Sub"):
        params.append(Param("alpha", ATTRIBUTE, SCALAR, default=1))
    if not inplace:
        params.append(Param("out", OUTPUT))

    def infer(**kw):
        return [] if inplace else infer_binary(kw[first], kw["other"], scalar=scalar)
    lhs = f"{first} = {_FORMULA[op].replace('self', first, 1)}" if inplace else f"out = {_FORMULA[op]}"
    return OpDef(op_type, tuple(params), infer=infer,
                 get_workspace_size=getattr(op_api, f"aclnn{op_type}GetWorkspaceSize"),
                 launch=getattr(op_api, f"aclnn{op_type}"), dtypes=ARITH_TYPES,
                 doc=lhs + (", ``other`` an aclScalar" if scalar else ", broadcasting"),
                 inplace=first if inplace else "")


BINARY_DEFS = tuple(_binary(op, scalar=s, inplace=i) for op in ("Add", "Sub", "Mul", "Div")
                    for i in (False, True) for s in (False, True))

RELU = OpDef("Relu", (Param("self", INPUT), Param("out", OUTPUT)), infer=lambda self: infer_same(self),
             get_workspace_size=op_api.aclnnReluGetWorkspaceSize, launch=op_api.aclnnRelu, dtypes=RELU_TYPES,
             doc="out = max(self, 0)")
INPLACE_RELU = OpDef("InplaceRelu", (Param("selfRef", INPUT),), infer=lambda selfRef: [],  # noqa: N803
                     get_workspace_size=op_api.aclnnInplaceReluGetWorkspaceSize, launch=op_api.aclnnInplaceRelu,
                     dtypes=RELU_TYPES, doc="selfRef = max(selfRef, 0)", inplace="selfRef")

OP_DEFS = BINARY_DEFS + (RELU, INPLACE_RELU)
