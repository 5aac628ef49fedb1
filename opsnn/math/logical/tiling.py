"""Logical/bitwise tiling: a pure function of (chip, operand shapes and dtypes,
kernel); no device. Bytes per element as in :mod:`..common.tiling`, pass counts
from :data:`.tiling_data.LOGICAL_COSTS`."""
from __future__ import annotations

from ..common.tiling import family_tiling
from .tiling_data import LOGICAL_COSTS

logical_tiling = family_tiling("logical", LOGICAL_COSTS)
