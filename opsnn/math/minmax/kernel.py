"""Min/max and modulo kernel half: the numpy compute of each kernel on the promoted
compute dtype (``b``: the scalar of the Scalar forms); tile program and body builder
from :mod:`..common.kernel`.

Maximum/Minimum propagate NaN (as torch.maximum, which aclnnMaximum implements);
Remainder is the floor modulo (result has the divisor's sign, torch.remainder);
Fmod is C's fmod (result has the dividend's sign, torch.fmod). An integer divided
by 0 gives 0 here (the hardware result is undefined).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)


def _mod(f):
    def compute(a, b):
        if a.dtype.kind in "iu":
            safe = np.where(b == 0, 1, b).astype(a.dtype)
            return np.where(b == 0, 0, f(a, safe)).astype(a.dtype)
        return f(a, b)
    return compute


#: kernel -> numpy compute
MINMAX_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Maximum": np.maximum, "Minimum": np.minimum, "Remainder": _mod(np.remainder), "Fmod": _mod(np.fmod),
}
