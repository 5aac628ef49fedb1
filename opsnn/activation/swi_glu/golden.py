"""float64 reference for SwiGlu (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def swi_glu_golden(x, dim=-1):
    """float64 silu(a) * b with (a, b) the two halves of ``x`` along ``dim``."""
    a, b = np.split(np.asarray(x, np.float64), 2, axis=dim)
    return a / (1.0 + np.exp(-a)) * b
