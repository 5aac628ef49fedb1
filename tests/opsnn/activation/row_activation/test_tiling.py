"""Row-activation tiling without a device: the one/multi-pass switch at the UB size."""
import pytest

from npu_sim import PRESETS
from opsnn.activation.row_activation.tiling import row_tiling
from opsnn.activation.row_activation.tiling_data import ROW_COSTS, RowTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


@pytest.mark.parametrize("kernel", sorted(ROW_COSTS))
def test_switch_point_is_the_ub_budget(kernel):
    """fp32 rows need 2 x (2 x 4 d) + 4 d = 20 d B of UB: one pass up to ub / 20."""
    d_max = TINY.ub_bytes // 20
    one = row_tiling(TINY, kernel, 8, d_max, 4)
    multi = row_tiling(TINY, kernel, 8, d_max + 1, 4)
    assert (one.strategy, one.tiling_key, one.data.reads) == ("one_pass", RowTilingKey.ONE_PASS, 1)
    assert (multi.strategy, multi.tiling_key) == ("multi_pass", RowTilingKey.MULTI_PASS)
    assert multi.data.reads == ROW_COSTS[kernel][1]
    assert row_tiling(B2, kernel, 8, d_max + 1, 4).strategy == "one_pass"   # 910B's UB is larger


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_fp16_counts_two_casts_and_covers_every_element(chip):
    res = row_tiling(chip, "LogSoftmax", 300, 77, 2)
    td, v = res.data, res.data.vector
    assert td.passes == ROW_COSTS["LogSoftmax"][0] + 2 and td.unit_bytes()[2] == 4 * td.passes
    assert td.gm_bytes == 2 * 300 * 77 * 2 and res.workspace_bytes == 0
    assert v.per_block * (v.block_dim - 1) < 300 * 77 <= v.per_block * v.block_dim
