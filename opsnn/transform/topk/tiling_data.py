"""Topk tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as TopkTilingData
from ..common.move_tiling import MoveTilingKey as TopkTilingKey

__all__ = ["TopkTilingData", "TopkTilingKey"]
