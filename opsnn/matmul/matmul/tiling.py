"""Matmul-family tiling: a pure function of (chip, GEMM dims, itemsizes, cube dtype).

One strategy, ``cube`` (key 0): the cube tiling of :mod:`opsnn.matmul.common.cube_tiling`
(base tile fitting L0A/L0B/L0C and L1, K chunks, output tiles round-robin over the AICs,
``block_dim = min(aic_count, out_tiles)``). The kernel needs no workspace of its own
(the contiguous copies phase 1 may add come on top).

cubeMathType (CANN aclnnMatmul doc, Atlas A2 behaviour, which the 910B presets model):
0 KEEP_DTYPE, 1 ALLOW_FP32_DOWN_PRECISION (fp32 -> HF32), 2 USE_FP16 (fp32 -> fp16),
3 USE_HF32 (fp32 -> HF32); 16-bit inputs are computed as stored.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ..common.cube_tiling import cube_tiling
from .tiling_data import MatmulTilingKey

CUBE_MATH_NAMES = {0: "KEEP_DTYPE", 1: "ALLOW_FP32_DOWN_PRECISION", 2: "USE_FP16", 3: "USE_HF32"}


def compute_dtype(dtype_name: str, cube_math_type: int) -> str:
    """Operand type the cube computes in for an input of ``dtype_name`` ("float32",
    "float16", "bfloat16") under ``cube_math_type``: "float32", "hfloat32", "float16" or
    "bfloat16" (module doc). The numpy body rounds the operands to it."""
    if dtype_name == "float32" and cube_math_type in (1, 3):
        return "hfloat32"
    if dtype_name == "float32" and cube_math_type == 2:
        return "float16"
    return dtype_name


# ---------------------------------------------------------------------------------
# CUBE COMPUTE DTYPE of Matmul/Mm/BatchMatMul/Addmm: the one function that picks the
# cube rate (issue 8: to become the family's shared cube_compute_dtype).
def cube_dtype(dtype_name: str, cube_math_type: int) -> str:
    """Cube-rate dtype name for the cost model (``ChipConfig.cube_macs_per_cycle``):
    :func:`compute_dtype`, with HF32 spelled "hf32"."""
    c = compute_dtype(dtype_name, cube_math_type)
    return "hf32" if c == "hfloat32" else c
# ---------------------------------------------------------------------------------


def matmul_tiling(chip: ChipConfig, name: str, batch: int, m: int, n: int, k: int, in_itemsize: int,
                  out_itemsize: int, cube_dtype_name: str) -> TilingResult:
    """Tile ``batch`` x [m, k] @ [k, n] on ``chip`` (``in_itemsize`` / ``out_itemsize``
    bytes per element of the operands / out; ``cube_dtype_name`` from :func:`cube_dtype`).
    Returns a :class:`TilingResult` (strategy "cube", key 0, workspace 0) whose ``data``
    is a :class:`~opsnn.matmul.common.cube_tiling.MatmulTilingData`. Raises
    AclnnError(561002) if no tile fits the chip's buffers (message starts with ``name``)."""
    td = cube_tiling(chip, batch, m, n, k, in_itemsize, out_itemsize, cube_dtype_name, name=name)
    return TilingResult("cube", int(MatmulTilingKey.BASE), td.block_dim, 0, td, ("cube",))
