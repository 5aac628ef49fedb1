"""GroupNorm tiling struct and keys: the row-norm ones (:mod:`opsnn.norm.common.
tiling_data`) under the op's names; a row is one (sample, group) pair."""
from __future__ import annotations

from ..common.tiling_data import RowNormTilingData as GroupNormTilingData  # noqa: F401
from ..common.tiling_data import RowNormTilingKey as GroupNormTilingKey  # noqa: F401
