"""Unary-math tiling: a pure function of (chip, shape, dtype, kernel); no device.
Bytes per element and the UB budget as in :mod:`..common.tiling`, pass counts from
:data:`.tiling_data.UNARY_MATH_COSTS` (``unary_math_tiling(chip, kernel, ins,
in_cts, out, out_ct, ...) -> TilingResult``)."""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import UNARY_MATH_COSTS

unary_math_tiling = family_tiling("unary_math", UNARY_MATH_COSTS)
