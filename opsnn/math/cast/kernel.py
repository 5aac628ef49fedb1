"""Cast kernel half: the compute is the identity on the source values; the body's
store into ``out`` converts (float -> integer truncates toward zero, anything ->
bool is nonzero, float32 -> float16/bfloat16 rounds to nearest even). Tile program
and body builder from :mod:`..common.kernel`."""
from __future__ import annotations

from typing import Callable

import numpy as np

from ..common.kernel import make_body, tile_program  # noqa: F401  (the family's kernel half)

#: kernel -> numpy compute
CAST_COMPUTE: dict[str, Callable[..., np.ndarray]] = {"Cast": lambda x: x}
