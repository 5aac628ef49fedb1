"""RmsNorm tiling struct and keys: the row-norm ones it shares with LayerNorm
(:mod:`opsnn.norm.common.tiling_data`), under the op's own names. RmsNorm's multi-pass
workspace keeps LayerNorm's layout, fp32 (0, rstd) per row."""
from __future__ import annotations

from ..common.tiling_data import RowNormTilingData as RmsNormTilingData  # noqa: F401
from ..common.tiling_data import RowNormTilingKey as RmsNormTilingKey  # noqa: F401
