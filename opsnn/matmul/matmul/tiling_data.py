"""Matmul-family tiling struct and keys: the one definition both halves read.

The struct is the cube family's :class:`~opsnn.matmul.common.cube_tiling.MatmulTilingData`
(cf. TCubeTiling), re-exported here; Matmul, Mm, BatchMatMul and Addmm have one kernel
variant."""
from __future__ import annotations

from enum import IntEnum

from ..common.cube_tiling import MatmulTilingData

__all__ = ["MatmulTilingData", "MatmulTilingKey"]


class MatmulTilingKey(IntEnum):
    """Kernel variants of the matmul family: one (the cube GEMM, batch dims folded into
    the output-tile count)."""

    BASE = 0
