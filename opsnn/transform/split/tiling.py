"""Split tiling: a pure function of (chip, shape, axis, sizes, itemsize); no device.

Cost model (one unit per element; assumption): pure data movement, the reverse of
Cat. MTE2 reads ``self`` once contiguously; MTE3 writes piece ``i`` as ``outer`` runs
of ``size_i * inner`` elements, each run rounded to whole 32 B DMA blocks.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling, row_bytes


def split_tiling(chip: ChipConfig, shape, axis: int, sizes, itemsize: int):
    """Tile a Split of a non-empty ``shape`` along ``axis`` into ``sizes``."""
    outer = inner = 1
    for d in shape[:axis]:
        outer *= int(d)
    for d in shape[axis + 1:]:
        inner *= int(d)
    n = outer * int(shape[axis]) * inner
    mte3 = sum(row_bytes((outer, s * inner), itemsize) for s in sizes if s)
    return move_tiling(chip, "Split", "copy", n, n * itemsize, mte3, params=(("pieces", len(sizes)),))
