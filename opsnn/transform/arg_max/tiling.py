"""ArgMax / ArgMin tiling: a pure function of (chip, numel, out numel, itemsize); no device.

Cost model (one unit per input element; assumption): MTE2 reads self once; the Vector
unit compares every element into a running max/min with its index (one pass, the
value plus a 4-byte index per element); MTE3 writes the INT64 indices.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def arg_tiling(chip: ChipConfig, label: str, numel: int, out_numel: int, itemsize: int):
    return move_tiling(chip, label, label.lower(), numel, numel * itemsize, out_numel * 8, numel * (itemsize + 4))
