"""PRelu tiling: a pure function of (chip, self and weight shapes and dtypes); no
device. Bytes per element as in :mod:`opsnn.math.common.tiling` (the weight is a
broadcast input, read at its own size), passes from :data:`.tiling_data.PRELU_COSTS`."""
from __future__ import annotations

from ...math.common.tiling import family_tiling
from .tiling_data import PRELU_COSTS

prelu_tiling = family_tiling("prelu", PRELU_COSTS)
