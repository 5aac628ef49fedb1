"""Logical and bitwise ops, one table (:data:`UNARY_ROWS` + :data:`ROWS`) on the
elementwise AIV kernel; the entry points are generated from the rows
(:mod:`..common.table`).

CANN prototypes (aclnn API reference, CANN 8.x):
  aclnnLogicalAnd(self, other, out), aclnnLogicalOr, aclnnLogicalXor   any dtype, BOOL out
  aclnnLogicalNot(self, out)                                            any dtype, BOOL out
  aclnnBitwiseAndTensor(self, other, out), aclnnBitwiseOrTensor, aclnnBitwiseXorTensor
  aclnnBitwiseNot(self, out)                 INT8, UINT8, INT16, INT32, INT64, BOOL
Operands promote and broadcast (at most 8 dims); the result casts to ``out``.
Errors: 161001 null; 161002 not a tensor, dtype (a float for the bitwise ops),
promotion, cast to out, broadcast, out shape.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType as T
from ...base.promotion import ALL_TYPES, INTS
from ..common.table import BinaryRow, UnaryRow, make_entry_points
from .kernel import LOGICAL_COMPUTE
from .tiling import logical_tiling

BITWISE_TYPES = INTS + (T.ACL_BOOL,)

UNARY_ROWS = (
    UnaryRow("LogicalNot", "LogicalNot", ALL_TYPES, "out = !self (nonzero is true)", result="bool"),
    UnaryRow("BitwiseNot", "BitwiseNot", BITWISE_TYPES, "out = ~self (bool: logical not)"),
)
ROWS = tuple(
    [BinaryRow(f"Logical{k}", f"Logical{k}", ALL_TYPES, f"out = self {s} other (nonzero is true), broadcasting",
               result="bool") for k, s in (("And", "&&"), ("Or", "||"), ("Xor", "^"))]
    + [BinaryRow(f"Bitwise{k}Tensor", f"Bitwise{k}", BITWISE_TYPES, f"out = self {s} other, bitwise, broadcasting")
       for k, s in (("And", "&"), ("Or", "|"), ("Xor", "^"))])

ENTRY_POINTS = make_entry_points(UNARY_ROWS, ROWS, tiling=logical_tiling, computes=LOGICAL_COMPUTE)
globals().update(ENTRY_POINTS)
__all__ = sorted(ENTRY_POINTS) + ["ROWS", "UNARY_ROWS", "ENTRY_POINTS"]
