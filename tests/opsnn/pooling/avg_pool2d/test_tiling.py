"""AvgPool2d tiling without a device: strategy, key, tiling data, block_dim, workspace."""
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.pooling.avg_pool2d.infershape import avg_pool_geom
from opsnn.pooling.avg_pool2d.tiling import REGISTRY, avg_pool_tiling
from opsnn.pooling.common.tiling_data import PoolTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("row", "row_chunk", "kernel_row_chunk")


def test_small_windows_go_row():
    g = avg_pool_geom((2, 5, 33, 30), (3, 3), (1, 1), (1, 1), False)
    for chip in (TINY, B2):
        res = avg_pool_tiling(chip, g, 4)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("row", PoolTilingKey.ROW, 0)
        assert td.units == v.total_units == 10 * 33 and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes
        # fp32: one add per tap and one divide per output, 4 B each
        outs = 10 * 33 * 30
        assert td.vec_bytes == outs * 9 * 4 + outs * 4


def test_half_types_pay_the_casts():
    g = avg_pool_geom((1, 4, 10, 9), (3, 3), (2, 2), (1, 1), True)
    outs = 4 * g.ho * g.wo
    assert avg_pool_tiling(TINY, g, 2).data.vec_bytes == outs * 9 * 4 + outs * 8


def test_64x64_window_chunks_kernel_rows():
    # one output of r kernel rows: 2 * (r * 64 * 4 + 4) + 4 B accumulator <= UB
    g = avg_pool_geom((1, 2, 64, 64), (64, 64), (1, 1), (0, 0), False)
    res = avg_pool_tiling(TINY, g, 4)
    r = ((TINY.ub_bytes - 4) // 2 - 4) // 256
    assert res.strategy == "kernel_row_chunk" and res.tiling_key == PoolTilingKey.KERNEL_ROW_CHUNK
    assert res.data.unit_kernel_rows == r and res.data.units == 2 * -(-64 // r)
    assert res.candidates == ("row", "row_chunk", "kernel_row_chunk")


def test_kernel_row_wider_than_ub_is_a_tiling_error():
    # one row of 2100 fp32: 2 * (8400 + 4) + 4 = 16812 B > 16 KiB
    g = avg_pool_geom((1, 1, 1, 2100), (1, 2100), (1, 1), (0,), False)
    with pytest.raises(AclnnError) as e:
        avg_pool_tiling(TINY, g, 4)
    assert e.value.code == 561002 and "one kernel row of 2100 input elements needs 16812 B" in str(e.value)
    assert avg_pool_tiling(B2, g, 4).strategy == "row"
