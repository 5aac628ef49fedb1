"""ArgMax / ArgMin definitions: ``keepdim`` defaults to False (torch.argmax)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnArgMax, aclnnArgMaxGetWorkspaceSize, aclnnArgMin, aclnnArgMinGetWorkspaceSize


def _def(name, ws, launch, what):
    return OpDef(name, (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR),
                        Param("keepdim", ATTRIBUTE, ATTR, default=False), Param("out", OUTPUT)),
                 infer=infer_shape, get_workspace_size=ws, launch=launch,
                 doc=f"the index of the {what} element of ``self`` along ``dim``")


OP_DEFS = (_def("ArgMax", aclnnArgMaxGetWorkspaceSize, aclnnArgMax, "largest"),
           _def("ArgMin", aclnnArgMinGetWorkspaceSize, aclnnArgMin, "smallest"))
