"""Pointwise-math tiling: a pure function of (chip, operand shapes and dtypes,
compute dtypes, kernel); no device. Bytes per element and the UB budget as in
:mod:`..common.tiling`, pass counts from :data:`.tiling_data.POINTWISE_COSTS`.

``pointwise_tiling(chip, kernel, ins, in_cts, out, out_ct, *, name=None, n=None,
extra_passes=0, out_units=True) -> TilingResult``, ``ins`` / ``out`` as (shape,
aclDataType) pairs, ``kernel`` one of Erf, Sqrt, Pow, Clamp, ClampHi.
"""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import POINTWISE_COSTS

pointwise_tiling = family_tiling("pointwise", POINTWISE_COSTS)
