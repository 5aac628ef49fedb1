"""Repeat tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as RepeatTilingData
from ..common.move_tiling import MoveTilingKey as RepeatTilingKey

__all__ = ["RepeatTilingData", "RepeatTilingKey"]
