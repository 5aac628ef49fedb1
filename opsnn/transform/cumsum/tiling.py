"""Cumsum tiling: a pure function of (chip, numel, itemsizes); no device.

Cost model (one unit per element; assumption): MTE2 reads self once; the Vector unit
adds each element into a running row accumulated in float32 for floating inputs
(two passes: the add and the cast, 4 bytes each; integer inputs one pass in their
width); MTE3 writes out once.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def cumsum_tiling(chip: ChipConfig, numel: int, in_itemsize: int, out_itemsize: int, is_float: bool, mode: str):
    vec = numel * (8 if is_float else out_itemsize)
    return move_tiling(chip, "Cumsum", mode, numel, numel * in_itemsize, numel * out_itemsize, vec)
