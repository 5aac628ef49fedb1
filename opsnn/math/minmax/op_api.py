"""Maximum, Minimum and the modulo ops, one table (:data:`ROWS`) on the elementwise
AIV kernel; the entry points are generated from the rows (:mod:`..common.table`).

CANN prototypes (aclnn API reference, CANN 8.x):
  aclnnMaximum(self, other, out), aclnnMinimum(self, other, out)
  aclnnRemainderTensorTensor(self, other, out), aclnnRemainderTensorScalar(self, other: aclScalar, out)
  aclnnFmodTensor(self, other, out), aclnnFmodScalar(self, other: aclScalar, out)
dtypes: FLOAT, FLOAT16, BF16, DOUBLE, INT8, UINT8, INT16, INT32, INT64 (Maximum and
Minimum also BOOL); operands promote and broadcast (at most 8 dims); the result casts
to ``out``. ONNX's variadic Max/Min/Mean lower to chains of these (frontend).
Errors: 161001 null; 161002 not a tensor, dtype, promotion, cast to out, broadcast,
out shape.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType as T
from ...base.promotion import ALL_TYPES
from ..common.table import BinaryRow, make_entry_points
from .kernel import MINMAX_COMPUTE
from .tiling import minmax_tiling

NUMERIC_TYPES = tuple(t for t in ALL_TYPES if t != T.ACL_BOOL)

ROWS = (
    BinaryRow("Maximum", "Maximum", ALL_TYPES, "out = max(self, other) (NaN propagates), broadcasting"),
    BinaryRow("Minimum", "Minimum", ALL_TYPES, "out = min(self, other) (NaN propagates), broadcasting"),
    BinaryRow("RemainderTensorTensor", "Remainder", NUMERIC_TYPES,
              "out = self - floor(self / other) * other (floor modulo), broadcasting"),
    BinaryRow("RemainderTensorScalar", "Remainder", NUMERIC_TYPES,
              "out = self - floor(self / other) * other, other an aclScalar", scalar=True),
    BinaryRow("FmodTensor", "Fmod", NUMERIC_TYPES, "out = fmod(self, other) (sign of self), broadcasting"),
    BinaryRow("FmodScalar", "Fmod", NUMERIC_TYPES, "out = fmod(self, other), other an aclScalar", scalar=True),
)

ENTRY_POINTS = make_entry_points(binary=ROWS, tiling=minmax_tiling, computes=MINMAX_COMPUTE)
globals().update(ENTRY_POINTS)
__all__ = sorted(ENTRY_POINTS) + ["ROWS", "ENTRY_POINTS"]
