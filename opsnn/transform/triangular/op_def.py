"""Triu / Tril definitions: ``diagonal`` defaults to 0 (torch.triu / tril)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnTril, aclnnTrilGetWorkspaceSize, aclnnTriu, aclnnTriuGetWorkspaceSize


def _def(name, ws, launch, what):
    return OpDef(name, (Param("self", INPUT), Param("diagonal", ATTRIBUTE, ATTR, default=0), Param("out", OUTPUT)),
                 infer=lambda self, diagonal: infer_shape(self[0], self[1]), get_workspace_size=ws, launch=launch,
                 doc=f"the {what} triangle of ``self``'s last two axes")


OP_DEFS = (_def("Triu", aclnnTriuGetWorkspaceSize, aclnnTriu, "upper"),
           _def("Tril", aclnnTrilGetWorkspaceSize, aclnnTril, "lower"))
