"""Arange tiling: a pure function of (chip, length, itemsize); no device.

Cost model (one unit per output element; assumption): no input; the Vector unit
builds the progression in UB (ArithProgression: itemsize bytes per element, computed
in the output dtype) and MTE3 writes it contiguously.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def arange_tiling(chip: ChipConfig, length: int, itemsize: int):
    b = length * itemsize
    return move_tiling(chip, "Arange", "progression", length, 0, b, b)
