"""DequantizeLinear tiling struct and keys (the quant family's vector struct)."""
from __future__ import annotations

from enum import IntEnum

from ..common.affine import VectorTilingData

__all__ = ["VectorTilingData", "DequantizeTilingKey"]


class DequantizeTilingKey(IntEnum):
    """Kernel variants: a [1] scale or a per-axis vector."""

    PER_TENSOR = 0
    PER_AXIS = 1
