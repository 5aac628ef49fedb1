"""Split tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as SplitTilingData
from ..common.move_tiling import MoveTilingKey as SplitTilingKey

__all__ = ["SplitTilingData", "SplitTilingKey"]
