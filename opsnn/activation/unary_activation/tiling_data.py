"""Unary-activation tiling struct, key and cost table (both halves read them).

Vector passes per element are assumptions: the Ascend C instructions each formula
decomposes into (Muls/Adds/Exp/Ln/Div/Abs/Maxs/Mins one each; a Compare + Select
branch two, with one mask row of scratch). tanh counts 6 (Muls 2, Exp, Adds 1,
Reciprocal, Muls -2, Adds 1 -- the 1 - 2 / (exp(2x) + 1) form). Scratch rows
(``tmp``) hold the intermediates a formula keeps alive alongside its input.
"""
from __future__ import annotations

# the family's tiling struct and key are the shared ones
from ...math.common.tiling_data import EltwiseCost, EltwiseTilingData, EltwiseTilingKey  # noqa: F401

#: kernel -> (Vector passes per element, scratch rows)
ACTIVATION_COSTS: dict[str, EltwiseCost] = {
    "Sigmoid": EltwiseCost(4, 1),        # Muls -1, Exp, Adds 1, Reciprocal
    "Tanh": EltwiseCost(6, 1),
    "LeakyRelu": EltwiseCost(1),         # the LeakyRelu instruction
    "Elu": EltwiseCost(7, 2),            # Muls, Exp, Adds, Muls, Muls, Compare, Select
    "Selu": EltwiseCost(7, 2),
    "Celu": EltwiseCost(7, 2),           # Muls 1/alpha, Exp, Adds, Muls, Mins, Maxs, Add
    "Softplus": EltwiseCost(7, 2),       # Muls, Exp, Adds, Ln, Muls, Compare, Select
    "Softsign": EltwiseCost(3, 1),       # Abs, Adds, Div
    "Hardsigmoid": EltwiseCost(4),       # Muls, Adds, Maxs, Mins
    "Hardswish": EltwiseCost(5, 1),      # Hardsigmoid + Mul
    "Mish": EltwiseCost(10, 2),          # softplus (Exp, Adds, Ln) + tanh (6) + Mul
    "Swish": EltwiseCost(5, 1),          # Muls beta, Muls -1, Exp, Adds, Div
    "Threshold": EltwiseCost(2, 1),      # Compare, Select
    "Hardshrink": EltwiseCost(3, 1),     # Abs, Compare, Select
    "Softshrink": EltwiseCost(6, 2),     # as Shrink with bias = lambd
    "Shrink": EltwiseCost(6, 2),         # Adds, Adds, Compare x2, Select x2
}
