"""Cast tiling struct, key and cost row (both halves read them): one Vector
conversion pass per element (an assumption; the store into ``out``'s dtype is that
pass, so the output "cast" of the shared cost model is it too)."""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
CAST_COSTS: dict[str, EltwiseCost] = {"Cast": EltwiseCost(1)}
