"""Einsum tiling: a pure function of (chip, sizes, itemsize); no device.

Cost model (one unit per output element; assumption): the general contraction runs
on the Vector unit (CANN's aclnnEinsum covers batched vector products such as
"abcd,abced->abce"): MTE2 reads every operand once, the Vector unit does one
multiply-add per term of the full label space (``prod(all label sizes)`` terms, 2
operand bytes of ``itemsize`` each), MTE3 writes out once.
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ..common.move_tiling import move_tiling


def einsum_tiling(chip: ChipConfig, in_bytes: int, out_numel: int, terms: int, itemsize: int):
    return move_tiling(chip, "Einsum", "contract", out_numel, in_bytes, out_numel * itemsize,
                       terms * 2 * itemsize, params=(("terms", terms),))
