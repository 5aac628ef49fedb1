"""Softmax tiling without a device: feed a chip config, expect the strategy, key,
tiling data, block_dim and workspace (as ops-nn's op_host tiling tests do)."""
import pytest

from npu_sim import PRESETS
from opsnn.activation.softmax.tiling import REGISTRY, softmax_tiling
from opsnn.activation.softmax.tiling_data import FIXED_UB_BYTES, SoftmaxTilingKey
from opsnn.base.status import AclnnError

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("one_pass", "multi_pass")


def test_small_rows_go_one_pass_on_every_preset():
    for chip in (TINY, B2):
        res = softmax_tiling(chip, rows=203, d=37, itemsize=4)
        td = res.data
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("one_pass", SoftmaxTilingKey.ONE_PASS, 0)
        assert res.candidates == ("one_pass",)
        assert (td.rows, td.row_elems, td.chunk_elems, td.chunks_per_row) == (203, 37, 37, 1)
        v = td.vector
        assert v.total_units == 203 and res.block_dim == v.block_dim <= chip.vector_core_count
        # every unit is covered, and one block's UB use fits the chip
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes


def test_one_pass_ub_budget_is_exact():
    # fp32 row of d: in + out double-buffered (2 * 8d) + one fp32 work row (4d) + 64 B fixed
    d_fit = (TINY.ub_bytes - FIXED_UB_BYTES) // 20
    assert softmax_tiling(TINY, 4, d_fit, 4).strategy == "one_pass"
    res = softmax_tiling(TINY, 4, d_fit + 1, 4)
    assert res.strategy == "multi_pass" and res.candidates == ("one_pass", "multi_pass")


def test_long_rows_go_multi_pass_in_equal_32_byte_chunks():
    res = softmax_tiling(TINY, rows=3, d=1000, itemsize=4)
    td = res.data
    assert res.strategy == "multi_pass" and res.tiling_key == SoftmaxTilingKey.MULTI_PASS
    assert td.chunk_elems % 8 == 0 and td.chunk_elems * td.chunks_per_row >= 1000
    assert td.chunk_elems * (td.chunks_per_row - 1) < 1000
    assert td.vector.total_units == 3 * td.chunks_per_row
    # three reads' slots + the scratch row + fixed bytes fit UB
    assert 2 * (3 * 4 + 4) * td.chunk_elems + 4 * td.chunk_elems + FIXED_UB_BYTES <= TINY.ub_bytes


def test_half_types_need_a_second_work_row():
    # fp16: 2 * (2d + 2d) + 8d = 16d bytes per row vs fp32's 20d
    d = (TINY.ub_bytes - FIXED_UB_BYTES) // 16
    assert softmax_tiling(TINY, 2, d, 2).strategy == "one_pass"
    assert softmax_tiling(TINY, 2, d, 4).strategy == "multi_pass"


def test_forced_strategy_and_errors():
    assert softmax_tiling(B2, 8, 64, 4, strategy="multi_pass").strategy == "multi_pass"
    with pytest.raises(AclnnError) as e:
        softmax_tiling(TINY, 2, 100000, 4, strategy="one_pass")
    assert e.value.code == 561002 and "one_pass" in str(e.value)
    with pytest.raises(AclnnError) as e:
        softmax_tiling(TINY, 2, 8, 4, strategy="bogus")
    assert e.value.code == 161002
