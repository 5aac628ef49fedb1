"""LayerNorm tiling struct and keys: the row-norm ones it shares with RmsNorm
(:mod:`opsnn.norm.common.tiling_data`), under the op's own names."""
from __future__ import annotations

from ..common.tiling_data import RowNormTilingData as LayerNormTilingData  # noqa: F401
from ..common.tiling_data import RowNormTilingKey as LayerNormTilingKey  # noqa: F401
