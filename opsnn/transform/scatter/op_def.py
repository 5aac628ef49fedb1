"""Scatter / ScatterNd definitions. Scatter's ``reduce`` defaults to 0 (replace)."""
from __future__ import annotations

from ...base.op_def import ATTR, ATTRIBUTE, INPUT, OUTPUT, OpDef, Param
from .infershape import infer_scatter, infer_scatter_nd
from .op_api import aclnnScatter, aclnnScatterGetWorkspaceSize, aclnnScatterNd, aclnnScatterNdGetWorkspaceSize

SCATTER = OpDef(
    "Scatter", (Param("self", INPUT), Param("dim", ATTRIBUTE, ATTR), Param("index", INPUT), Param("src", INPUT),
                Param("reduce", ATTRIBUTE, ATTR, default=0), Param("out", OUTPUT)),
    infer=infer_scatter, get_workspace_size=aclnnScatterGetWorkspaceSize, launch=aclnnScatter,
    doc="a copy of ``self`` with ``src`` written along ``dim`` at ``index``",
)
SCATTER_ND = OpDef(
    "ScatterNd", (Param("data", INPUT), Param("indices", INPUT), Param("updates", INPUT), Param("out", OUTPUT)),
    infer=infer_scatter_nd, get_workspace_size=aclnnScatterNdGetWorkspaceSize, launch=aclnnScatterNd,
    doc="a copy of ``data`` with ``updates`` written at the index tuples ``indices``",
)

OP_DEFS = (SCATTER, SCATTER_ND)
