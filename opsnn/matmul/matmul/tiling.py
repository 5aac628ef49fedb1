"""Matmul-family tiling: a pure function of (chip, GEMM dims, itemsizes, cube dtype).

One strategy, ``cube`` (key 0): the cube tiling of :mod:`opsnn.matmul.common.cube_tiling`
(base tile fitting L0A/L0B/L0C and L1, K chunks, output tiles round-robin over the AICs,
``block_dim = min(aic_count, out_tiles)``). The kernel needs no workspace of its own
(the contiguous copies phase 1 may add come on top).

cubeMathType picks the Cube's compute type through the family-wide
:func:`opsnn.matmul.common.cube_math.cube_compute_dtype` (the same for Convolution).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.cube_tiling import cube_tiling
from .tiling_data import MatmulTilingKey


def matmul_tiling(chip: ChipConfig, name: str, batch: int, m: int, n: int, k: int, in_itemsize: int,
                  out_itemsize: int, cube_dtype_name: str) -> TilingResult:
    """Tile ``batch`` x [m, k] @ [k, n] on ``chip`` (``in_itemsize`` / ``out_itemsize``
    bytes per element of the operands / out; ``cube_dtype_name``: the Cube's compute type,
    :func:`opsnn.matmul.common.cube_math.cube_compute_dtype`).
    Returns a :class:`TilingResult` (strategy "cube", key 0, workspace 0) whose ``data``
    is a :class:`~opsnn.matmul.common.cube_tiling.MatmulTilingData`. Raises
    AclnnError(561002) if no tile fits the chip's buffers (message starts with ``name``)."""
    td = cube_tiling(chip, batch, m, n, k, in_itemsize, out_itemsize, cube_dtype_name, name=name)
    return TilingResult("cube", int(MatmulTilingKey.BASE), td.block_dim, 0, td, ("cube",))
