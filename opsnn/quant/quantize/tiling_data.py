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
    #: a blocked scale (ONNX opset 21 ``block_size``): x's rank, one value per block of
    #: ``blockSize`` elements along ``axis``, streamed / resident as the per-axis vector
    PER_BLOCK = 2
