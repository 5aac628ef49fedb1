"""Pad tiling: a pure function of (chip, shapes, mode, itemsize); no device.

Cost model (one unit per output element; assumption): MTE2 reads ``self`` once in
rows of its last axis (each run rounded to whole 32 B DMA blocks); MTE3 writes ``out``
in rows of its last axis, rounded the same way. A constant pad fills the border in UB
with a Vector Duplicate (itemsize bytes per border element); reflect / edge / wrap
instead fetch the border elements again from ``self`` by DMA (the extra rows of
``out`` beyond ``self``'s, 32 B-rounded), with no Vector work.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling, row_bytes


def pad_tiling(chip: ChipConfig, in_shape, out_shape, mode: str, itemsize: int):
    """Tile a Pad of ``in_shape`` to a non-empty ``out_shape`` in ``mode``. Returns a
    TilingResult whose ``data`` is a PadTilingData (units: output elements)."""
    n_in = n_out = 1
    for d in in_shape:
        n_in *= int(d)
    for d in out_shape:
        n_out *= int(d)
    border = max(n_out - n_in, 0)
    mte2 = row_bytes(in_shape, itemsize) if n_in else 0
    mte3 = row_bytes(out_shape, itemsize)
    if mode == "constant":
        vec = border * itemsize
    else:
        mte2 += max(mte3 - mte2, 0)
        vec = 0
    return move_tiling(chip, "Pad", mode, n_out, mte2, mte3, vec, params=(("border_elems", border),))
