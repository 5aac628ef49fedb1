"""Scatter tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as ScatterTilingData
from ..common.move_tiling import MoveTilingKey as ScatterTilingKey

__all__ = ["ScatterTilingData", "ScatterTilingKey"]
