"""OneHot tiling: a pure function of (chip, sizes, itemsizes); no device.

Cost model (one unit per output element; assumption): MTE2 reads the indices once
(plus the two value tensors' first elements, one 32 B block each); the Vector unit
compares and selects (out itemsize bytes per element); MTE3 writes out contiguously.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import DMA_BLOCK_BYTES, move_tiling


def one_hot_tiling(chip: ChipConfig, n_idx: int, num_classes: int, idx_itemsize: int, itemsize: int):
    n = n_idx * num_classes
    return move_tiling(chip, "OneHot", "select", n, n_idx * idx_itemsize + 2 * DMA_BLOCK_BYTES, n * itemsize,
                       n * itemsize, params=(("num_classes", num_classes),))
