"""Arange tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as ArangeTilingData
from ..common.move_tiling import MoveTilingKey as ArangeTilingKey

__all__ = ["ArangeTilingData", "ArangeTilingKey"]
