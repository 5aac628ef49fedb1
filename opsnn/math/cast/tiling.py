"""Cast tiling: a pure function of (chip, shape, source dtype, target dtype); no
device. The source is "computed" in its own dtype and the result's compute dtype is
the target, so no fused cast is counted: MTE2 ``itemsize(src)``, MTE3
``itemsize(dst)``, VECTOR one pass of ``max(itemsize)`` bytes per element
(:mod:`..common.tiling`).

``cast_tiling(chip, "Cast", [(shape, src)], [src], (shape, dst), dst, *, name=None,
n=None, extra_passes=0, out_units=True) -> TilingResult``.
"""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import CAST_COSTS

cast_tiling = family_tiling("cast", CAST_COSTS)
