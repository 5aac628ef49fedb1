"""SwiGlu tiling struct, key and cost row: the elementwise family's (one unit is one
output element, reading two input elements, one of each half).

Vector passes per output element [A]: Silu's 4 (Muls -1, Exp, Adds 1, Div) and one Mul
by the other half; one compute-typed scratch row.
"""
from __future__ import annotations

from ...math.common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

SWI_GLU_COST = EltwiseCost(5, 1)
