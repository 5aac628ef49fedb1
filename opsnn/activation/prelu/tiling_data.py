"""PRelu tiling struct, key and cost table (both halves read them).

Vector passes per element (assumption): Mul (weight x self), Compare (self >= 0),
Select = 3, one mask row of scratch; a broadcast weight adds the family's Brcb pass.
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ...math.common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
PRELU_COSTS: dict[str, EltwiseCost] = {"Prelu": EltwiseCost(3, 1)}
