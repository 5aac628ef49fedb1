"""Pad family definitions: parameters in CANN order. ConstantPadNd's ``value``
defaults to 0 (torch.nn.functional.pad's default)."""
from __future__ import annotations

from ...base.op_def import ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, SCALAR, OpDef, Param
from . import op_api as A
from .infershape import infer_shape

CONSTANT_PAD_ND = OpDef(
    "ConstantPadNd",
    (Param("self", INPUT), Param("pad", ATTRIBUTE, INT_ARRAY), Param("value", ATTRIBUTE, SCALAR, default=0),
     Param("out", OUTPUT)),
    infer=lambda self, pad, value: infer_shape(self[0], self[1], pad),
    get_workspace_size=A.aclnnConstantPadNdGetWorkspaceSize, launch=A.aclnnConstantPadNd,
    doc="``self`` padded by ``pad`` (last axis first) with ``value``",
)


def _nd(name: str, what: str) -> OpDef:
    return OpDef(name, (Param("self", INPUT), Param("padding", ATTRIBUTE, INT_ARRAY), Param("out", OUTPUT)),
                 infer=lambda self, padding: infer_shape(self[0], self[1], padding),
                 get_workspace_size=getattr(A, f"aclnn{name}GetWorkspaceSize"), launch=getattr(A, f"aclnn{name}"),
                 doc=f"``self`` {what}-padded by ``padding`` (last axis first)")


OP_DEFS = (CONSTANT_PAD_ND,) + tuple(_nd(n, w) for n, w in (
    ("ReflectionPad1d", "reflection"), ("ReflectionPad2d", "reflection"), ("ReflectionPad3d", "reflection"),
    ("ReplicationPad1d", "replication"), ("ReplicationPad2d", "replication"), ("ReplicationPad3d", "replication"),
    ("CircularPad2d", "circular"), ("CircularPad3d", "circular")))
