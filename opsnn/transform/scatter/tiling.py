"""Scatter / ScatterNd tiling: pure functions of (chip, sizes, itemsizes); no device.

Cost model (one unit per element of out; assumption): out starts as a copy of self
(MTE2 + MTE3 of self's bytes); then every update is read with its index (MTE2) and
written to a random address of out, one whole 32 B block per element (Scatter) or its
slice rounded to 32 B blocks (ScatterNd), on MTE3. A reduction (add / mul / max /
min) reads the old value too (one more 32 B block per element on MTE2) and does one
Vector pass over the updates.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import align_up
from ..common.move_tiling import DMA_BLOCK_BYTES, MoveTilingKey, move_tiling


def scatter_tiling(chip: ChipConfig, label: str, n_out: int, itemsize: int, updates: int, slice_elems: int,
                   idx_bytes: int, reduce: str):
    blk = align_up(slice_elems * itemsize, DMA_BLOCK_BYTES)
    mte2 = n_out * itemsize + updates * slice_elems * itemsize + idx_bytes
    mte3 = n_out * itemsize + updates * blk
    vec = 0
    if reduce != "none":
        mte2 += updates * blk
        vec = updates * slice_elems * itemsize
    return move_tiling(chip, label, reduce, n_out, mte2, mte3, vec, key=MoveTilingKey.SCATTER,
                       params=(("updates", updates),))
