"""ArgMax tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as ArgMaxTilingData
from ..common.move_tiling import MoveTilingKey as ArgMaxTilingKey

__all__ = ["ArgMaxTilingData", "ArgMaxTilingKey"]
