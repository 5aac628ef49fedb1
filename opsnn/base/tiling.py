"""Shared tiling recipes (compatibility module).

The vector (UB-streaming) recipe lives in :mod:`opsnn.base.vector_tiling` (tiling and
tile program split), the tiling result type and strategy registry in
:mod:`opsnn.base.tiling_base`, and the cube (L1/L0 GEMM) recipe in
:mod:`opsnn.matmul.common.cube_tiling` (the pure tiling, :func:`cube_tiling`) and
:mod:`opsnn.matmul.common.cube_program` (the tile program, :func:`cube_program`); all
are re-exported here for older imports (``cube_kernel`` runs both cube halves).
"""
from __future__ import annotations

from ..matmul.common.cube_program import cube_kernel, cube_program  # noqa: F401
from ..matmul.common.cube_tiling import MAX_CUBE_STEPS_PER_BLOCK, MatmulTilingData, cube_tiling  # noqa: F401
from .tiling_base import align_up, ceil_div  # noqa: F401
from .vector_tiling import (MAX_VECTOR_STEPS_PER_BLOCK, MIN_BLOCK_BYTES, VectorTilingData,  # noqa: F401
                            vector_blocks, vector_kernel, vector_spec, vector_tiling)
