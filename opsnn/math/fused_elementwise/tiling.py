"""FusedElementwise tiling: a pure function of (chip, input shapes and itemsizes, the
chain); no device.

One unit is one output element. An input as large as the output is streamed (MTE2
per tile); a smaller (broadcast) one of at most :data:`RESIDENT_MAX_BYTES` is loaded
into UB once per block, a larger one is streamed at its own size (as the eager
elementwise kernels charge it). VECTOR streams ``(sum of passes + broadcasts) *
compute itemsize`` bytes per element. UB: every live tile counts -- the streamed
inputs and the output double-buffered (``vector_tiling``'s in/out bytes), plus one
scratch row per intermediate alive at once (plus the members' own scratch rows),
plus the resident operands. :func:`live_tiles` is the count the graph pass keeps at
most :data:`~.tiling_data.MAX_LIVE_TILES`. Key STREAM, workspace 0.
"""
from __future__ import annotations

import math
from typing import Sequence

import numpy as np
from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult
from ...base.vector_tiling import vector_tiling
from .tiling_data import FUSED_OPS, FusedElementwiseTilingData, FusedElementwiseTilingKey

#: a broadcast operand up to this size stays resident in UB [A]
RESIDENT_MAX_BYTES = 16 * 1024


def max_live_intermediates(n_inputs: int, steps: Sequence) -> int:
    """Most intermediate rows alive at once while the chain runs step by step: the
    results still to be read (a result lives from its step to its last reader) plus
    the row the step writes, unless it is the last step (that row is the output)."""
    last_use = {}
    for j, (_, operands, _) in enumerate(steps):
        for o in operands:
            if o >= n_inputs:
                last_use[o - n_inputs] = j
    best = 0
    for j in range(len(steps)):
        alive = sum(1 for i, end in last_use.items() if i < j <= end) + (j < len(steps) - 1)
        best = max(best, alive)
    return best


def live_tiles(n_streamed: int, n_inputs: int, steps: Sequence) -> int:
    """UB rows alive at once: streamed inputs + live intermediates + the output."""
    return n_streamed + max_live_intermediates(n_inputs, steps) + 1


def fused_elementwise_tiling(chip: ChipConfig, in_shapes: Sequence[Sequence[int]], in_itemsizes: Sequence[int],
                             out_itemsize: int, compute_itemsize: int, steps: Sequence) -> TilingResult:
    """Tile a fused chain ``steps`` (tiling_data doc) over the broadcast of
    ``in_shapes`` on ``chip``. Returns a :class:`TilingResult` (strategy "stream")
    whose ``data`` is a :class:`FusedElementwiseTilingData`. Raises AclnnError(561002)
    if one element's live tiles do not fit UB."""
    shape = [int(d) for d in np.broadcast_shapes(*[tuple(s) for s in in_shapes])]
    n = math.prod(shape)
    sizes = [math.prod(s) for s in in_shapes]
    resident = tuple(i for i, k in enumerate(sizes) if k < n and k * in_itemsizes[i] <= RESIDENT_MAX_BYTES)
    streamed = tuple(i for i in range(len(sizes)) if i not in resident)
    in_per = sum(sizes[i] * in_itemsizes[i] for i in streamed) / max(n, 1)
    res_bytes = sum(sizes[i] * in_itemsizes[i] for i in resident)
    bcast = sum(1 for k in sizes if k < n)
    passes = sum(FUSED_OPS[op].passes for op, _, _ in steps)
    scratch = max_live_intermediates(len(sizes), steps) + max(FUSED_OPS[op].tmp for op, _, _ in steps)
    vec_per = (passes + bcast) * compute_itemsize
    tmp_per = scratch * compute_itemsize
    vt = vector_tiling(chip, "FusedElementwise", n, in_per, out_itemsize, tmp_bytes_per_unit=tmp_per,
                       fixed_ub_bytes=res_bytes)
    gm = sum(k * i for k, i in zip(sizes, in_itemsizes)) + n * out_itemsize
    td = FusedElementwiseTilingData(tuple(steps), n, streamed, resident, in_per, out_itemsize, vec_per, tmp_per,
                                    res_bytes, live_tiles(len(streamed), len(sizes), steps), gm, vt)
    return TilingResult("stream", int(FusedElementwiseTilingKey.STREAM), vt.block_dim, 0, td)
