"""float64 reference for Cast (tests only); arguments in op_def order."""
from __future__ import annotations

import numpy as np


def cast_golden(self, to_kind: str):
    """Reference value of cast(self): ``to_kind`` "f" (float: the value itself), "i"
    (integer: truncated toward zero) or "b" (bool: nonzero)."""
    x = np.asarray(self, dtype=np.float64)
    if to_kind == "i":
        return np.trunc(x)
    if to_kind == "b":
        return x != 0
    return x
