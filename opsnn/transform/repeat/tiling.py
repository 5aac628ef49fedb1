"""Repeat tiling: a pure function of (chip, shapes, itemsize); no device.

Cost model (one unit per output element; assumption): every copy of ``self`` is a
DMA from GM (self stays L2-resident), so MTE2 reads ``prod(repeats)`` copies of
self's rows of the last axis (32 B-rounded runs) and MTE3 writes out's rows of its
last axis (32 B-rounded); no Vector work.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling, row_bytes


def repeat_tiling(chip: ChipConfig, in_shape, out_shape, itemsize: int):
    """Tile a Repeat of ``in_shape`` (left-padded to out's rank) to a non-empty ``out_shape``."""
    copies = n_out = 1
    for a, b in zip(in_shape, out_shape):
        copies *= int(b) // int(a)
    for d in out_shape:
        n_out *= int(d)
    return move_tiling(chip, "Repeat", "copy", n_out, copies * row_bytes(in_shape, itemsize),
                       row_bytes(out_shape, itemsize), params=(("copies", copies),))
