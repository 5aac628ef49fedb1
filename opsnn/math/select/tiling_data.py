"""Selection tiling struct, key and cost table (both halves read them).

Vector passes per element (assumptions): Where 1 (Select); Eq 2 (Compare, then a
Select into bool); Equal 3 (Compare, Select, and a ReduceMin into the one bool, whose
output is a single element: ``out_units`` False).
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
SELECT_COSTS: dict[str, EltwiseCost] = {
    "Where": EltwiseCost(1),
    "Eq": EltwiseCost(2),
    "Equal": EltwiseCost(3),
}
