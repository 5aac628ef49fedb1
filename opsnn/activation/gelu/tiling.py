"""Gelu/Silu tiling: a pure function of (chip, shape, dtype, kernel); no device.
Bytes per element and the UB budget as in :mod:`opsnn.math.common.tiling` (a 16-bit
input computes in float32: one cast in, one cast out, and a float32 scratch row per
operand and result), pass counts from :data:`.tiling_data.GELU_COSTS`.

``gelu_tiling(chip, kernel, [(shape, dtype)], [compute dtype], (shape, dtype),
compute dtype, *, name=None, n=None, extra_passes=0, out_units=True) ->
TilingResult``, ``kernel`` one of Gelu, GeluV2Tanh, Silu.
"""
from __future__ import annotations

from ...math.common.tiling import family_tiling
from .tiling_data import GELU_COSTS

gelu_tiling = family_tiling("gelu", GELU_COSTS)
