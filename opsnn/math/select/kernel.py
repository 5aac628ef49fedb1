"""Selection kernel half: the numpy compute of each kernel (compute-typed arrays);
tile program and body builder from :mod:`..common.kernel`.

Formulas: Where condition ? a : b (nonzero condition is true); Eq a == b
elementwise; Equal one bool, true iff the shapes match and every element is equal.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)

#: kernel -> numpy compute
SELECT_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Where": lambda c, a, b: np.where(c, a, b),
    "Eq": lambda a, b: a == b,
    "Equal": lambda a, b: np.asarray(a.shape == b.shape and bool((a == b).all())),
}
