"""Einsum tiling struct and key: the shared transform struct (``transform/common``)."""
from ..common.move_tiling import MoveTilingData as EinsumTilingData
from ..common.move_tiling import MoveTilingKey as EinsumTilingKey

__all__ = ["EinsumTilingData", "EinsumTilingKey"]
