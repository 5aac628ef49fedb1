"""Cat definition: parameters in CANN order, shape and dtype inference. ``dim``
defaults to 0, as torch.cat."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, TENSOR_LIST, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnCat, aclnnCatGetWorkspaceSize

CAT = OpDef(
    "Cat",
    (Param("tensors", INPUT, TENSOR_LIST), Param("dim", ATTRIBUTE, ATTR, default=0), Param("out", OUTPUT)),
    infer=lambda tensors, dim: infer_shape(tensors, dim),
    get_workspace_size=aclnnCatGetWorkspaceSize, launch=aclnnCat,
    doc="concatenation of ``tensors`` along ``dim`` (dtypes promoted)",
)

OP_DEFS = (CAT,)
