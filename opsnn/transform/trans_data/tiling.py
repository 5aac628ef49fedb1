"""TransData tiling: a pure function of (chip, conversion, logical shape, itemsize).

Cost model (no new formula: the stage formulas of ``npu_sim/hardware/cost.py`` for
MTE2, VECTOR and MTE3 through the shared UB-streaming program of
``opsnn/base/vector_tiling.py``): one unit per element of the padded layout (the
NC1HWC0 or FRACTAL_Z storage). Per UB tile, MTE2 reads the source's elements of
the tile, the Vector unit rearranges them in UB (``TransDataTo5HD``: one pass,
itemsize bytes per padded element, pad channels written as zeros) and MTE3 writes the
destination's elements. The unpadded side moves numel(logical) * itemsize bytes,
the padded side numel(packed) * itemsize. The strided gather of C0 channel rows
(one run of H*W elements per channel) is taken as streaming reads [assumption: runs
of H*W elements are long enough that the 32 B burst rounding does not matter; for
7x7 fp16 maps a run is 98 B, rounded to 128 B by the real DMA, which this model
does not charge]. Workspace 0.
"""
from __future__ import annotations

import math

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from .infershape import NC1HWC0_TO_NCHW, NCHW_TO_FRACTAL_Z, NCHW_TO_NC1HWC0, fractal_z_shape, nc1hwc0_shape
from .tiling_data import TransDataTilingData, TransDataTilingKey


def trans_data_tiling(chip: ChipConfig, kind: str, logical, itemsize: int, c0: int) -> TilingResult:
    """Tile TransData ``kind`` (NCHW->NC1HWC0, NC1HWC0->NCHW, NCHW->FRACTAL_Z) of a
    non-empty ``logical`` NCHW (or [Cout, Cin, kh, kw]) shape with ``itemsize``-byte
    elements and ``c0`` channels per slice. Returns a :class:`TilingResult` (strategy
    "vector_transpose", workspace 0) whose ``data`` is a :class:`TransDataTilingData`.
    Raises ValueError for an unknown kind."""
    logical = tuple(int(d) for d in logical)
    if kind in (NCHW_TO_NC1HWC0, NC1HWC0_TO_NCHW):
        packed = nc1hwc0_shape(logical, c0)
    elif kind == NCHW_TO_FRACTAL_Z:
        packed = fractal_z_shape(logical, c0)
    else:
        raise ValueError(f"unknown TransData kind {kind!r}")
    plain, padded = math.prod(logical) * itemsize, math.prod(packed) * itemsize
    src, dst = (padded, plain) if kind == NC1HWC0_TO_NCHW else (plain, padded)
    units = math.prod(packed)
    vt = vector_tiling(chip, "TransData", units, src / units, dst / units)
    td = TransDataTilingData(kind, logical, packed, int(c0), int(itemsize), src, dst, vt)
    return TilingResult("vector_transpose", int(TransDataTilingKey.of(kind)), vt.block_dim, 0, td)
