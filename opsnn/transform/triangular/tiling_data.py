"""Triu tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as TriuTilingData
from ..common.move_tiling import MoveTilingKey as TriuTilingKey

__all__ = ["TriuTilingData", "TriuTilingKey"]
