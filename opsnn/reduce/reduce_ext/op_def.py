"""Definitions of the extra reductions, from :data:`.op_api.ROWS`: ``(self, [pScalar,]
dim, keepDim, out)`` in CANN order. Defaults: ``dim`` empty (every axis), ``keepDim``
False (torch's amax/amin/logsumexp need a dim; the empty default is this simulator's),
``pScalar`` 2 (torch.norm's default)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, INT_ARRAY, OUTPUT, SCALAR, OpDef, Param
from .infershape import infer_reduce
from .op_api import ENTRY_POINTS, ROWS


def _def(row) -> OpDef:
    p = (Param("pScalar", ATTRIBUTE, SCALAR, default=2.0),) if row.p else ()
    return OpDef(row.op_type, (Param("self", INPUT),) + p + (Param("dim", ATTRIBUTE, INT_ARRAY, default=()),
                                                            Param("keepDim", ATTRIBUTE, ATTR, default=False),
                                                            Param("out", OUTPUT)),
                 infer=lambda self, dim, keepDim, **_: infer_reduce(self, dim, keepDim),  # noqa: N803
                 get_workspace_size=ENTRY_POINTS[f"aclnn{row.op_type}GetWorkspaceSize"],
                 launch=ENTRY_POINTS[f"aclnn{row.op_type}"], dtypes=row.dtypes, doc=row.doc)


OP_DEFS = tuple(_def(r) for r in ROWS)
