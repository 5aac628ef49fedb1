"""Topk definition: dim -1, largest and sorted True by default (torch.topk's)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnTopk, aclnnTopkGetWorkspaceSize

TOPK = OpDef(
    "Topk", (Param("self", INPUT), Param("k", ATTRIBUTE, ATTR), Param("dim", ATTRIBUTE, ATTR, default=-1),
             Param("largest", ATTRIBUTE, ATTR, default=True), Param("sorted", ATTRIBUTE, ATTR, default=True),
             Param("valuesOut", OUTPUT), Param("indicesOut", OUTPUT)),
    infer=infer_shape, get_workspace_size=aclnnTopkGetWorkspaceSize, launch=aclnnTopk,
    doc="the ``k`` largest (smallest) values of ``self`` along ``dim`` and their indices",
)

OP_DEFS = (TOPK,)
