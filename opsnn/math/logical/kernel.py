"""Logical/bitwise kernel half: the numpy compute of each kernel on the compute
dtype; tile program and body builder from :mod:`..common.kernel`. Logical ops treat
nonzero as true; bitwise ops act on the two's-complement bits (BOOL: as logical)."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)

#: kernel -> numpy compute
LOGICAL_COMPUTE: dict[str, Callable[..., np.ndarray]] = {
    "LogicalAnd": np.logical_and, "LogicalOr": np.logical_or, "LogicalXor": np.logical_xor,
    "LogicalNot": np.logical_not,
    "BitwiseAnd": np.bitwise_and, "BitwiseOr": np.bitwise_or, "BitwiseXor": np.bitwise_xor,
    "BitwiseNot": np.invert,
}
