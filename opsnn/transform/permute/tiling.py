"""Permute tiling: a pure function of (chip, shape, permutation, itemsize); no device.

Axes that stay adjacent and in order are merged first, so a permutation reduces to
its essential form (e.g. [0, 2, 1, 3] of [2, 3, 4, 5] is "swap the middle two"; an
identity is a plain copy). Tile program (one unit per element; assumption): MTE2
reads ``self`` once in storage order; when the last axis moves, the Vector unit
transposes in UB (one pass, itemsize bytes per element) and MTE3 writes the output
contiguously; when it stays, no Vector work, and MTE3 writes runs of the last merged
axis, each rounded up to whole 32 B DMA blocks (Ascend C DataCopy granule).
"""
from __future__ import annotations

from npu_sim import ChipConfig

from ...base.tiling_base import TilingResult, align_up
from ...base.vector_tiling import vector_tiling
from .infershape import merge_perm
from .tiling_data import PermuteTilingData, PermuteTilingKey

#: DMA granule (bytes): Ascend C DataCopy moves whole 32 B blocks
DMA_BLOCK_BYTES = 32


def permute_tiling(chip: ChipConfig, shape: tuple[int, ...], perm: list[int], itemsize: int) -> TilingResult:
    """Tile a Permute of a non-empty ``shape`` by ``perm`` (a permutation of its axes)
    with ``itemsize``-byte elements. Returns a :class:`TilingResult` whose ``data`` is
    a :class:`PermuteTilingData`; workspace 0 (contiguous copies come on top)."""
    mperm, mshape = merge_perm(shape, perm)
    n = 1
    for d in shape:
        n *= d
    if mperm[-1] != len(mperm) - 1:
        mte3, strategy = n * itemsize, "transpose"
    else:
        run = mshape[-1]
        mte3 = (n // run) * align_up(run * itemsize, DMA_BLOCK_BYTES)
        strategy = "copy" if mperm == sorted(mperm) else "dma_permute"
    vt = vector_tiling(chip, "Permute", n, itemsize, mte3 / n)
    td = PermuteTilingData(strategy, n, itemsize, tuple(mperm), tuple(mshape), mte3, vt)
    return TilingResult(strategy, int(PermuteTilingKey.PERMUTE), vt.block_dim, 0, td)
