"""The OpDef shape ReduceSum and Mean share: (self, dim, keepDim, dtype, out).

Defaults: ``dim`` empty (every axis, torch's sum()/mean() with no dim) and
``keepDim`` False, as torch; ``dtype`` (the result dtype) has no default and is
keyword-only in the Pythonic function."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, OpDef, Param
from .infershape import infer_shape


def reduce_op_def(op_type: str, get_workspace_size, launch, dtypes: tuple, doc: str) -> OpDef:
    """The OpDef of a reduction entry point pair."""
    return OpDef(
        op_type,
        (Param("self", INPUT), Param("dim", ATTRIBUTE, INT_ARRAY, default=()),
         Param("keepDim", ATTRIBUTE, ATTR, default=False), Param("dtype", ATTRIBUTE, ATTR), Param("out", OUTPUT)),
        infer=lambda self, dim, keepDim, dtype: infer_shape(self[0], dim, keepDim, dtype),  # noqa: N803
        get_workspace_size=get_workspace_size, launch=launch, dtypes=dtypes, doc=doc,
    )
