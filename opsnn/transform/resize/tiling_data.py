"""Resize tiling struct and key: the shared transform struct (``transform/common``); the
mode ("nearest", "linear", "cubic") is the strategy."""
from ..common.move_tiling import MoveTilingData as ResizeTilingData
from ..common.move_tiling import MoveTilingKey as ResizeTilingKey

__all__ = ["ResizeTilingData", "ResizeTilingKey"]
