"""Quantize tiling struct and keys: the quant family's vector struct, and whether the
scale is per tensor or per axis."""
from __future__ import annotations

from enum import IntEnum

from ..common.affine import VectorTilingData

__all__ = ["VectorTilingData", "QuantizeTilingKey"]


class QuantizeTilingKey(IntEnum):
    """Kernel variants: a [1] scale (one scalar in a register) or a per-axis vector."""

    PER_TENSOR = 0
    PER_AXIS = 1
