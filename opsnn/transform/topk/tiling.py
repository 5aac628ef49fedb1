"""Topk tiling: a pure function of (chip, sizes, itemsize); no device.

Cost model (one unit per input element; assumption): MTE2 reads self once; the Vector
unit sorts each row of ``n`` along ``dim`` with Sort32 on 32-element groups then
merge-sort passes (``1 + ceil(log2(ceil(n / 32)))`` passes over the row, each moving
the value and a 4-byte index per element); MTE3 writes k values and k INT64 indices
per row.
"""
from __future__ import annotations

import math

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def sort_passes(n: int) -> int:
    """Sort32 + merge passes over a row of ``n``."""
    groups = max(1, math.ceil(n / 32))
    return 1 + (math.ceil(math.log2(groups)) if groups > 1 else 0)


def topk_tiling(chip: ChipConfig, rows: int, n: int, k: int, itemsize: int):
    passes = sort_passes(n)
    units = rows * n
    return move_tiling(chip, "Topk", "sort", units, units * itemsize, rows * k * (itemsize + 8),
                       units * passes * (itemsize + 4), params=(("k", k), ("sort_passes", passes)))
