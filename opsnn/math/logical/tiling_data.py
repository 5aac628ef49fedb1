"""Logical and bitwise tiling struct, key and cost table (both halves read them).

Vector passes per element (assumptions): And, Or, Not one instruction each on the
integer (or BOOL as UINT8) lanes; LogicalAnd/Or/Xor first normalise each operand to
0/1 (a Compare each, 2 passes) then combine (1); Xor as (a | b) & ~(a & b): 4;
LogicalNot a Compare with 0.
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
LOGICAL_COSTS: dict[str, EltwiseCost] = {
    "LogicalAnd": EltwiseCost(3, 1), "LogicalOr": EltwiseCost(3, 1), "LogicalXor": EltwiseCost(3, 1),
    "LogicalNot": EltwiseCost(1),
    "BitwiseAnd": EltwiseCost(1), "BitwiseOr": EltwiseCost(1), "BitwiseXor": EltwiseCost(4, 1),
    "BitwiseNot": EltwiseCost(1),
}
