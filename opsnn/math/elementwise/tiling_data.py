"""Elementwise-arithmetic tiling struct, key and cost table (both halves read them).

Vector passes per element (assumptions): Add, Sub, Mul, Div, Relu one instruction
each; an ``alpha`` other than 1 adds a Muls (``extra_passes``, decided in op_api).
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
ELEMENTWISE_COSTS: dict[str, EltwiseCost] = {
    "Add": EltwiseCost(1),
    "Sub": EltwiseCost(1),
    "Mul": EltwiseCost(1),
    "Div": EltwiseCost(1),
    "Relu": EltwiseCost(1),
}
