"""Cumsum tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as CumsumTilingData
from ..common.move_tiling import MoveTilingKey as CumsumTilingKey

__all__ = ["CumsumTilingData", "CumsumTilingKey"]
