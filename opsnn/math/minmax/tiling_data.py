"""Min/max and modulo tiling struct, key and cost table (both halves read them).

Vector passes per element (assumptions): Max, Min one instruction each;
Remainder (floor modulo) Div, Floor, Mul, Sub = 4 with one scratch row; Fmod (C
fmod) Div, Trunc, Mul, Sub = 4 with one scratch row. Integer modulo is taken to
cost the same passes (computed through float32 on the Vector unit: an assumption).
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
MINMAX_COSTS: dict[str, EltwiseCost] = {
    "Maximum": EltwiseCost(1), "Minimum": EltwiseCost(1), "Remainder": EltwiseCost(4, 1), "Fmod": EltwiseCost(4, 1),
}
