"""Contiguous / ViewCopy tiling without a device: feed a chip config and a view
(shape, strides, itemsize), expect the DMA-block byte counts, key, block_dim and UB use."""
from npu_sim import PRESETS
from opsnn.common.contiguous import CopyTilingKey, contiguous_tiling, view_copy_tiling

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def _covers(res, chip, n):
    v = res.data.vector
    assert v.total_units == n and res.block_dim == v.block_dim <= chip.vector_core_count
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim
    assert v.ub_bytes_used <= chip.ub_bytes


def test_transpose_gather_costs_one_dma_block_per_element():
    # a 40x8 float32 read transposed: inner stride 8 elements = 32 B, so every element
    # sits in its own 32 B block; the contiguous side writes 4 B per element
    for chip in (TINY, B2):
        res = contiguous_tiling(chip, (8, 40), (1, 8), 4)
        td = res.data
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("copy", CopyTilingKey.COPY, 0)
        assert td.label == "Contiguous" and td.numel == 320 and not td.broadcast
        assert td.mte2_bytes == 320 * 32 and td.mte3_bytes == 320 * 4
        assert td.unit_bytes() == (32.0, 4.0, 0)
        _covers(res, chip, 320)


def test_ub_factor_fits_two_buffers_of_in_and_out():
    res = contiguous_tiling(TINY, (64, 512), (1, 64), 2)
    v, (i, o, _) = res.data.vector, res.data.unit_bytes()
    assert v.buffer_num == 2 and v.ub_factor * 2 * (i + o) <= TINY.ub_bytes
    _covers(res, TINY, 64 * 512)
    assert v.block_dim > 1          # 32 Ki elements spread over several AIVs


def test_view_copy_scatters_whole_blocks_per_run():
    # 3 rows of 10 float32 at a row pitch of 16: each run of 40 B is written as 64 B
    res = view_copy_tiling(TINY, (3, 10), (16, 1), 4)
    td = res.data
    assert td.label == "ViewCopy" and td.mte2_bytes == 120 and td.mte3_bytes == 3 * 64
    # every other float16: a write cannot cover the gaps, one block per element
    assert view_copy_tiling(TINY, (3, 10), (40, 2), 2).data.mte3_bytes == 30 * 32


def test_broadcast_is_read_once_and_expanded_on_the_vector_unit():
    res = contiguous_tiling(TINY, (7, 8), (0, 1), 4)
    td = res.data
    assert td.broadcast and td.mte2_bytes == 32 and td.mte3_bytes == 7 * 8 * 4
    assert td.unit_bytes()[2] == 4
