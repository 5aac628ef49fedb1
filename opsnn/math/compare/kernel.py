"""Comparison kernel half: the numpy compute of each kernel on the promoted compute
dtype (``b``: the scalar of the ``...Scalar`` forms); tile program and body builder
from :mod:`..common.kernel`. NaN compares false (Ne: true), as IEEE and torch."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)

#: kernel -> numpy compute
COMPARE_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "Gt": np.greater, "Ge": np.greater_equal, "Lt": np.less, "Le": np.less_equal, "Ne": np.not_equal,
}
