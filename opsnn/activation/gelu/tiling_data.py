"""Gelu/Silu tiling struct, key and cost table (both halves read them).

Vector passes per element (assumptions): Gelu (erf form) 14, an erf polynomial of
~10 plus 4 muls/adds; GeluV2 tanh form 8 (Mul, Mul, Muls, Add, Muls, Exp, Adds,
Div); Silu 4 (Muls, Exp, Adds, Div). Each keeps one compute-typed scratch row.
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ...math.common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
GELU_COSTS: dict[str, EltwiseCost] = {
    "Gelu": EltwiseCost(14, 1),
    "GeluV2Tanh": EltwiseCost(8, 1),
    "Silu": EltwiseCost(4, 1),
}
