"""SwiGlu kernel half: the compute (float32 arrays) and the family's tile program.

Formula (CANN aclnnSwiGlu): out = Swish(A) * B = A / (1 + exp(-A)) * B, with A and B
the first and second halves of x along ``dim``. Computed in float32, rounded once.
"""
from __future__ import annotations

import numpy as np

from ...math.common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)


def swi_glu_compute(x: np.ndarray, dim: int) -> np.ndarray:
    """silu(first half) * second half of ``x`` along ``dim`` (x's dtype)."""
    a, b = np.split(x, 2, axis=dim)
    return a / (x.dtype.type(1) + np.exp(-a)) * b
