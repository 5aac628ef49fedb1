"""Triu / Tril tiling: a pure function of (chip, numel, itemsize); no device.

Cost model (one unit per element; assumption): MTE2 reads self once, the Vector unit
selects each element against the diagonal mask (one Select pass, itemsize bytes per
element), MTE3 writes out once.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def triangular_tiling(chip: ChipConfig, label: str, numel: int, itemsize: int, diagonal: int):
    b = numel * itemsize
    return move_tiling(chip, label, label.lower(), numel, b, b, b, params=(("diagonal", diagonal),))
