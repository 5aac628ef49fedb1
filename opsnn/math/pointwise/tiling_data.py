"""Pointwise-math tiling struct, key and cost table (both halves read them).

Vector passes per element (assumptions): Sqrt 1; Erf 10 (a polynomial, plus one
scratch row); Pow 3 (Ln, Mul, Exp; one scratch row); Clamp 2 (Maxs, Mins; one less
with a single bound, ``extra_passes`` -1 from op_api). ``ClampHi`` is Clamp with only
an upper tensor bound (the compute takes ``(x, hi)``).
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
POINTWISE_COSTS: dict[str, EltwiseCost] = {
    "Erf": EltwiseCost(10, 1),
    "Sqrt": EltwiseCost(1),
    "Pow": EltwiseCost(3, 1),
    "Clamp": EltwiseCost(2),
    "ClampHi": EltwiseCost(2),
}
