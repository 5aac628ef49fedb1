"""AdaptiveAvgPool2d tiling without a device: windows, strategy, key, tiling data."""
from npu_sim import PRESETS
from opsnn.pooling.adaptive_avg_pool2d.tiling import REGISTRY, adaptive_avg_pool_tiling, adaptive_windows
from opsnn.pooling.common.tiling_data import PoolTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("row", "row_chunk", "kernel_row_chunk")


def test_adaptive_windows():
    # 13 -> 6: windows [0,3) [2,5) [4,7) [6,9) [8,11) [10,13), three rows each
    assert adaptive_windows(13, 13, 6, 6) == (3, 3, 18 * 18)
    # global pool: one window of the whole plane
    assert adaptive_windows(7, 9, 1, 1) == (7, 9, 63)


def test_alexnet_pool_goes_row():
    for chip in (TINY, B2):
        res = adaptive_avg_pool_tiling(chip, 4, 13, 13, 6, 6, 4)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("row", PoolTilingKey.ROW, 0)
        assert td.rows_in == 3 and td.units == v.total_units == 4 * 6
        assert res.block_dim == v.block_dim <= chip.vector_core_count and v.ub_bytes_used <= chip.ub_bytes
        assert td.vec_bytes == 4 * 324 * 4 + 4 * 36 * 4


def test_global_pool_of_a_large_plane_chunks_kernel_rows():
    # 96 x 96 fp32 into one output: r rows of 96 columns, 2 * (384r + 4) + 4 <= UB
    res = adaptive_avg_pool_tiling(TINY, 3, 96, 96, 1, 1, 4)
    r = ((TINY.ub_bytes - 4) // 2 - 4) // 384
    assert res.strategy == "kernel_row_chunk" and res.data.unit_kernel_rows == r
    assert res.data.units == 3 * -(-96 // r)
    assert adaptive_avg_pool_tiling(B2, 3, 96, 96, 1, 1, 4).strategy == "row"
