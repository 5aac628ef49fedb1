"""MaxPool / MaxPool2dWithIndices tiling without a device: feed a chip config and a
geometry, expect the strategy, key, tiling data, block_dim and workspace."""
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.pooling.common.geometry import make_geom
from opsnn.pooling.common.tiling_data import PoolTilingKey
from opsnn.pooling.max_pool.tiling import REGISTRIES, max_pool_tiling

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def _row_geom(w, planes=1):
    """A 1 x 1 kernel over one row of ``w`` elements: one output per input element."""
    return make_geom((planes, 1, 1, w), (1, 1), (1, 1), (1, 1), (0, 0, 0, 0), False)


def test_strategies_are_registered_in_priority_order():
    for reg in REGISTRIES.values():
        assert reg.names == ("row", "row_chunk", "kernel_row_chunk")


def test_resnet_stem_goes_row_and_covers_every_output_row():
    # ResNet-50's 3x3/2 pad-1 max pool on 64 planes of 112 x 112 -> 56 x 56
    g = make_geom((1, 64, 112, 112), (3, 3), (2, 2), (1, 1), (1, 1, 1, 1), False)
    assert (g.ho, g.wo) == (56, 56)
    for chip in (TINY, B2):
        res = max_pool_tiling(chip, "MaxPool", g, 2)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("row", PoolTilingKey.ROW, 0)
        assert (td.unit_outputs, td.unit_kernel_rows, td.rows_in) == (56, 3, 3)
        assert td.units == v.total_units == 64 * 56
        assert res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes
        # every output row reads 3 input rows of all 112 columns; one fp16 value out per output
        assert td.in_bytes == 64 * 56 * 3 * 112 * 2 and td.out_bytes == 64 * 56 * 56 * 2


def test_row_to_row_chunk_switch_point_values_only():
    # fp32, 1x1 kernel: a row of W outputs needs 2 * (4W in + 4W out) = 16W bytes of UB
    w_fit = TINY.ub_bytes // 16
    assert max_pool_tiling(TINY, "MaxPool", _row_geom(w_fit), 4).strategy == "row"
    res = max_pool_tiling(TINY, "MaxPool", _row_geom(w_fit + 1), 4)
    assert res.strategy == "row_chunk" and res.tiling_key == PoolTilingKey.ROW_CHUNK
    assert res.data.unit_outputs == w_fit and res.data.units == 2          # two chunks of one row
    assert res.candidates == ("row", "row_chunk")


def test_indices_add_index_bytes_and_a_running_index_per_output():
    # fp32 value + int64 index out (12 B) and a 4 B int32 running index: 2 * (4 + 12) + 4 = 36 B per output
    w_fit = TINY.ub_bytes // 36
    assert max_pool_tiling(TINY, "MaxPool2dWithIndices", _row_geom(w_fit), 4, 8).strategy == "row"
    res = max_pool_tiling(TINY, "MaxPool2dWithIndices", _row_geom(w_fit + 1), 4, 8)
    assert res.strategy == "row_chunk" and res.data.unit_outputs == w_fit
    # vector work per tap: compare + select of the value (2 x 4 B) + select of the index (4 B)
    assert res.data.vec_bytes == (w_fit + 1) * 12


def test_huge_window_chunks_kernel_rows():
    # 64 x 64 fp32 window, one output: r rows of 64 columns need 2 * (256r + 4) bytes
    g = make_geom((1, 2, 64, 64), (64, 64), (1, 1), (1, 1), (0, 0, 0, 0), False)
    res = max_pool_tiling(TINY, "MaxPool", g, 4)
    r = (TINY.ub_bytes // 2 - 4) // 256
    assert res.strategy == "kernel_row_chunk" and res.tiling_key == PoolTilingKey.KERNEL_ROW_CHUNK
    assert (res.data.unit_kernel_rows, res.data.unit_outputs) == (r, 1)
    assert res.data.units == 2 * -(-64 // r)


def test_forced_strategy_and_errors():
    g = _row_geom(TINY.ub_bytes // 16 + 1)
    assert max_pool_tiling(TINY, "MaxPool", g, 4, strategy="kernel_row_chunk").strategy == "kernel_row_chunk"
    with pytest.raises(AclnnError) as e:
        max_pool_tiling(TINY, "MaxPool", g, 4, strategy="row")
    assert e.value.code == 561002 and "row" in str(e.value)
    with pytest.raises(AclnnError) as e:
        max_pool_tiling(TINY, "MaxPool", g, 4, strategy="bogus")
    assert e.value.code == 161002
