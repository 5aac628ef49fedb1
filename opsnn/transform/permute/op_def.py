"""Permute definition: parameters in CANN order, dtypes, shape inference (``dims`` is
required, as in torch.permute)."""
from __future__ import annotations

from ...base.op_def import ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnPermute, aclnnPermuteGetWorkspaceSize

PERMUTE = OpDef(
    "Permute",
    (Param("self", INPUT), Param("dims", ATTRIBUTE, INT_ARRAY), Param("out", OUTPUT)),
    infer=lambda self, dims: infer_shape(self[0], self[1], dims),
    get_workspace_size=aclnnPermuteGetWorkspaceSize, launch=aclnnPermute,
    doc="``self`` with its axes reordered by ``dims`` (a new contiguous tensor)",
)

OP_DEFS = (PERMUTE,)
