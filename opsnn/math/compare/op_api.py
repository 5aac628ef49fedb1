"""Comparisons, one table (:data:`ROWS`) on the elementwise AIV kernel; the entry
points are generated from the rows (:mod:`..common.table`).

CANN prototypes (aclnn API reference, CANN 8.x):
  aclnnGtTensor(self, other, out), aclnnGeTensor, aclnnLtTensor, aclnnLeTensor, aclnnNeTensor
  aclnnGtScalar(self, other: aclScalar, out), aclnnGeScalar, aclnnLtScalar, aclnnLeScalar, aclnnNeScalar
dtypes: FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64, BOOL; the
operands promote (:mod:`opsnn.base.promotion`) and compare in the promoted type
(16-bit floats in float32); ``out`` is BOOL or a type BOOL casts to. Shapes broadcast
(at most 8 dims). Errors: 161001 null; 161002 not a tensor, dtype, promotion, cast to
out, broadcast, out shape.
"""
from __future__ import annotations

from ...base.promotion import ALL_TYPES
from ..common.table import BinaryRow, make_entry_points
from .kernel import COMPARE_COMPUTE
from .tiling import compare_tiling

_SYM = {"Gt": ">", "Ge": ">=", "Lt": "<", "Le": "<=", "Ne": "!="}

ROWS = tuple(BinaryRow(f"{k}{form}", k, ALL_TYPES, f"out = self {s} other" + (", other an aclScalar" if sc else
                                                                                ", broadcasting"),
                       result="bool", scalar=sc)
             for k, s in _SYM.items() for form, sc in (("Tensor", False), ("Scalar", True)))

ENTRY_POINTS = make_entry_points(binary=ROWS, tiling=compare_tiling, computes=COMPARE_COMPUTE)
globals().update(ENTRY_POINTS)
__all__ = sorted(ENTRY_POINTS) + ["ROWS", "ENTRY_POINTS"]
