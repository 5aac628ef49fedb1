"""QuantMatmul tiling struct and keys, shared by host and kernel halves.

The struct is the cube family's :class:`~opsnn.matmul.common.cube_tiling.MatmulTilingData`
tiled for int8 operands (1 B per element, K fractal 32, int32 accumulator 4 B in L0C).
The key says which dequant FixPipe applies."""
from __future__ import annotations

from enum import IntEnum

from ..common.cube_tiling import MatmulTilingData

__all__ = ["MatmulTilingData", "QuantMatmulTilingKey"]


class QuantMatmulTilingKey(IntEnum):
    """Kernel variants: the scale FixPipe applies as L0C drains to GM."""

    PER_TENSOR = 0    #: scale of shape [1]
    PER_CHANNEL = 1   #: scale of shape [N]
    PER_TOKEN = 2     #: pertokenScale [M] (times a [1] or [N] scale)
