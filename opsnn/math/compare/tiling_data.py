"""Comparison tiling struct, key and cost table (both halves read them).

Vector passes per element (assumption): one Compare (``Compare``/``CompareScalar``
with the CMPMODE of the op) producing the BOOL result.
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
COMPARE_COSTS: dict[str, EltwiseCost] = {k: EltwiseCost(1) for k in ("Gt", "Ge", "Lt", "Le", "Ne")}
