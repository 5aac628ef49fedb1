"""Einsum definition: ``tensors`` is an aclTensorList, ``equation`` a string."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, TENSOR_LIST, OpDef, Param
from .infershape import infer_shape
from .op_api import aclnnEinsum, aclnnEinsumGetWorkspaceSize

EINSUM = OpDef(
    "Einsum", (Param("tensors", INPUT, TENSOR_LIST), Param("equation", ATTRIBUTE, ATTR), Param("output", OUTPUT)),
    infer=infer_shape, get_workspace_size=aclnnEinsumGetWorkspaceSize, launch=aclnnEinsum,
    doc="the Einstein-summation contraction of ``tensors`` by ``equation``",
)

OP_DEFS = (EINSUM,)
