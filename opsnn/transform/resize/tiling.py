"""Resize tiling: a pure function of (chip, shapes, taps, itemsize); no device.

Cost model (one unit per output element; assumption): the resize is separable, one
pass per resized axis. MTE2 reads self once (rows of the last axis, 32 B-rounded);
the Vector unit does, per resized axis, ``taps`` multiply-adds per element of that
pass's result (1 tap nearest, 2 linear, 4 cubic) in float32 (4 bytes each); MTE3
writes out once.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling, row_bytes

TAPS = {"nearest": 1, "linear": 2, "cubic": 4}


def resize_tiling(chip: ChipConfig, in_shape, out_shape, mode: str, itemsize: int):
    """Tile a Resize of ``in_shape`` to a non-empty ``out_shape``."""
    cur = list(in_shape)
    vec = 0
    for a, (i, o) in enumerate(zip(in_shape, out_shape)):
        if i != o:
            cur[a] = o
            n = 1
            for d in cur:
                n *= int(d)
            vec += n * TAPS[mode] * 4
    n_out = 1
    for d in out_shape:
        n_out *= int(d)
    return move_tiling(chip, "Resize", mode, n_out, row_bytes(in_shape, itemsize), row_bytes(out_shape, itemsize),
                       vec, params=(("taps", TAPS[mode]),))
