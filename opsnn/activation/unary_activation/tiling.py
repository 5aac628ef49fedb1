"""Unary-activation tiling: a pure function of (chip, shape, dtype, kernel); no device.
Bytes per element and the UB budget as in :mod:`opsnn.math.common.tiling`, pass
counts from :data:`.tiling_data.ACTIVATION_COSTS`.

``activation_tiling(chip, kernel, [(shape, dtype)], [compute dtype], (shape, dtype),
compute dtype, *, name=None, n=None, extra_passes=0, out_units=True) -> TilingResult``.
"""
from __future__ import annotations

from ...math.common.tiling import family_tiling
from .tiling_data import ACTIVATION_COSTS

activation_tiling = family_tiling("activation", ACTIVATION_COSTS)
