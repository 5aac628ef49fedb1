"""Unary-math tiling struct, key and cost table (both halves read them).

Vector passes per element are assumptions: one for the ops with a Vector
instruction of their own (Exp, Ln, Abs, Reciprocal, Rsqrt, Muls -1 for Neg, a Cast
with a rounding mode for Floor/Ceil/Round, Compare for IsNan, Not); Sign is
Compare + Select twice; the trigonometric ones are Ascend C library routines, a
range reduction plus a polynomial (Sin/Cos 12, Tan = Sin/Cos + Div 25, Atan 14,
Asin/Acos 16 = Atan of x / sqrt(1 - x^2)); the hyperbolic ones are Exp/Ln
compositions (Sinh/Cosh: Exp, Reciprocal, Sub or Add, Muls = 4; Asinh/Acosh:
Mul, Adds, Sqrt, Add, Ln = 5; Atanh: Adds, Adds, Div, Ln, Muls = 5).
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ..common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
UNARY_MATH_COSTS: dict[str, EltwiseCost] = {
    "Exp": EltwiseCost(1), "Log": EltwiseCost(1), "Abs": EltwiseCost(1), "Neg": EltwiseCost(1),
    "Reciprocal": EltwiseCost(1), "Rsqrt": EltwiseCost(1), "Floor": EltwiseCost(1), "Ceil": EltwiseCost(1),
    "Round": EltwiseCost(1), "Sign": EltwiseCost(4, 1),
    "Sin": EltwiseCost(12, 2), "Cos": EltwiseCost(12, 2), "Tan": EltwiseCost(25, 3), "Atan": EltwiseCost(14, 2),
    "Asin": EltwiseCost(16, 2), "Acos": EltwiseCost(16, 2),
    "Sinh": EltwiseCost(4, 1), "Cosh": EltwiseCost(4, 1), "Asinh": EltwiseCost(5, 1), "Acosh": EltwiseCost(5, 1),
    "Atanh": EltwiseCost(5, 1),
    "IsNan": EltwiseCost(1), "IsInf": EltwiseCost(2), "IsPosInf": EltwiseCost(1), "IsNegInf": EltwiseCost(1),
}
