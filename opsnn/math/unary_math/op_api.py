"""Unary math, one table (:data:`ROWS`) on the elementwise AIV kernel; the entry
points are generated from the rows (:mod:`..common.table`).

CANN prototypes (aclnn API reference, CANN 8.x): ``aclnnXxx(self, out)`` for Exp,
Log, Abs, Neg, Reciprocal, Rsqrt, Floor, Ceil, Round, Sign, Sin, Cos, Tan, Asin, Acos,
Atan, Sinh, Cosh, Asinh, Acosh, Atanh, IsInf, IsPosInf, IsNegInf. ``aclnnIsNan(self,
out)`` is this simulator's name (no aclnn IsNan page was found; CANN's style).
dtypes: the float ops (Exp ... Atanh, Reciprocal, Rsqrt) take FLOAT, FLOAT16, BF16,
DOUBLE and the integer types and BOOL, an integral input computing in float32 (its
result FLOAT, cast to ``out``); Abs, Neg, Sign take the numeric types and keep them;
Floor, Ceil, Round take the numeric types (identity on integers); IsNan, IsInf,
IsPosInf, IsNegInf take the numeric types and give BOOL. ``out``: ``self``'s shape,
a dtype the result casts to. Errors: 161001 null; 161002 not a tensor, dtype, out
dtype or shape, rank > 8.
"""
from __future__ import annotations

from ...base.dtypes import aclDataType as T
from ...base.promotion import ALL_TYPES
from ..common.table import UnaryRow, make_entry_points
from .kernel import UNARY_MATH_COMPUTE
from .tiling import unary_math_tiling

NUMERIC_TYPES = tuple(t for t in ALL_TYPES if t != T.ACL_BOOL)

_FLOAT_OPS = {"Exp": "exp(self)", "Log": "ln(self)", "Reciprocal": "1 / self", "Rsqrt": "1 / sqrt(self)",
              "Sin": "sin(self)", "Cos": "cos(self)", "Tan": "tan(self)", "Asin": "asin(self)",
              "Acos": "acos(self)", "Atan": "atan(self)", "Sinh": "sinh(self)", "Cosh": "cosh(self)",
              "Asinh": "asinh(self)", "Acosh": "acosh(self)", "Atanh": "atanh(self)"}
_SAME_OPS = {"Abs": "|self|", "Neg": "-self", "Sign": "sign(self) (-1, 0, 1)", "Floor": "floor(self)",
             "Ceil": "ceil(self)", "Round": "round(self), half to even"}
_BOOL_OPS = {"IsNan": "self != self (not a CANN op)", "IsInf": "|self| == inf", "IsPosInf": "self == +inf",
             "IsNegInf": "self == -inf"}

ROWS = tuple(
    [UnaryRow(op, op, ALL_TYPES, f"out = {f}", result="float") for op, f in _FLOAT_OPS.items()]
    + [UnaryRow(op, op, NUMERIC_TYPES, f"out = {f}") for op, f in _SAME_OPS.items()]
    + [UnaryRow(op, op, NUMERIC_TYPES, f"out = {f}", result="bool") for op, f in _BOOL_OPS.items()])

ENTRY_POINTS = make_entry_points(ROWS, tiling=unary_math_tiling, computes=UNARY_MATH_COMPUTE)
globals().update(ENTRY_POINTS)
__all__ = sorted(ENTRY_POINTS) + ["ROWS", "ENTRY_POINTS"]
