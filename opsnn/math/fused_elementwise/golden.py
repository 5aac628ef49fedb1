"""FusedElementwise float64 reference (tests only): the chain evaluated step by step."""
from __future__ import annotations

import math

import numpy as np

_F64 = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide,
        "Relu": lambda x: np.maximum(x, 0.0), "Sqrt": np.sqrt, "Erf": np.vectorize(math.erf),
        "Cast": lambda x: x}


def fused_elementwise_golden(xs, steps) -> np.ndarray:
    """float64 result of ``steps`` over inputs ``xs`` (casts ignored)."""
    vals = [np.asarray(x, np.float64) for x in xs]
    for op, operands, _ in steps:
        vals.append(np.asarray(_F64[op](*[vals[o] for o in operands]), np.float64))
    return vals[-1]
