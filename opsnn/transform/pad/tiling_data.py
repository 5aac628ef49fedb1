"""Pad tiling struct and key: the shared transform struct (``transform/common``); one
kernel per mode, the mode is the strategy ("constant", "reflect", "edge", "wrap")."""
from ..common.move_tiling import MoveTilingData as PadTilingData
from ..common.move_tiling import MoveTilingKey as PadTilingKey

__all__ = ["PadTilingData", "PadTilingKey"]
