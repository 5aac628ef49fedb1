"""Gather / GatherNd tiling: pure functions of (chip, sizes, itemsizes); no device.

Cost model (assumption; the gathers are DMA-only, like Embedding):
* Gather (elements, one unit per output element): MTE2 reads the index once and, per
  element, one whole 32 B block of ``self`` (a random address); MTE3 writes out once.
* GatherNd (one unit per gathered slice of ``s`` elements): MTE2 reads the slice's
  ``k`` indices and the slice (its bytes rounded to whole 32 B blocks); MTE3 writes it.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import align_up
from ..common.move_tiling import DMA_BLOCK_BYTES, MoveTilingKey, move_tiling


def gather_tiling(chip: ChipConfig, n: int, itemsize: int, idx_itemsize: int):
    return move_tiling(chip, "Gather", "elements", n, n * (idx_itemsize + DMA_BLOCK_BYTES), n * itemsize,
                       key=MoveTilingKey.GATHER)


def gather_nd_tiling(chip: ChipConfig, slices: int, slice_elems: int, k: int, itemsize: int, idx_itemsize: int):
    mte2 = slices * (k * idx_itemsize + align_up(slice_elems * itemsize, DMA_BLOCK_BYTES))
    return move_tiling(chip, "GatherNd", "slices", slices, mte2, slices * slice_elems * itemsize,
                       key=MoveTilingKey.GATHER, params=(("slice_elems", slice_elems),))
