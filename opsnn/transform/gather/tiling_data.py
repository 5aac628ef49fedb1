"""Gather tiling struct and key: the shared transform struct (``transform/common``);
the op's variant is its ``strategy``."""
from ..common.move_tiling import MoveTilingData as GatherTilingData
from ..common.move_tiling import MoveTilingKey as GatherTilingKey

__all__ = ["GatherTilingData", "GatherTilingKey"]
