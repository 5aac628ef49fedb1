"""OneHot tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as OneHotTilingData
from ..common.move_tiling import MoveTilingKey as OneHotTilingKey

__all__ = ["OneHotTilingData", "OneHotTilingKey"]
