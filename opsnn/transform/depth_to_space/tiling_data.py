"""DepthToSpace tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as DepthToSpaceTilingData
from ..common.move_tiling import MoveTilingKey as DepthToSpaceTilingKey

__all__ = ["DepthToSpaceTilingData", "DepthToSpaceTilingKey"]
