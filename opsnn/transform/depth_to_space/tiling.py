"""DepthToSpace / SpaceToDepth tiling: a pure function of (chip, numel, itemsize); no device.

Cost model (one unit per element; assumption): the rearrangement moves the last axis
(W interleaves with a block axis), so it is a Permute "transpose": MTE2 reads self
once, the Vector unit transposes in UB (itemsize bytes per element), MTE3 writes out
contiguously.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def space_depth_tiling(chip: ChipConfig, label: str, mode: str, numel: int, itemsize: int):
    """Tile a DepthToSpace / SpaceToDepth of ``numel`` (> 0) elements."""
    b = numel * itemsize
    return move_tiling(chip, label, mode.lower(), numel, b, b, b)
