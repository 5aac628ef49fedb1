"""Comparison tiling: a pure function of (chip, operand shapes and dtypes, kernel);
no device. Bytes per element as in :mod:`..common.tiling` (a BOOL result: 1 B per
element over MTE3), pass counts from :data:`.tiling_data.COMPARE_COSTS`."""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import COMPARE_COSTS

compare_tiling = family_tiling("compare", COMPARE_COSTS)
