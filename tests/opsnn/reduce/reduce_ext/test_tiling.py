"""Extra-reduction tiling without a device."""
import pytest

from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.reduce.reduce_ext.op_api import ROWS
from opsnn.reduce.reduce_ext.tiling import reduce_ext_tiling
from opsnn.reduce.reduce_ext.tiling_data import REDUCE_EXT_PASSES, ReduceTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_every_row_has_a_pass_count():
    assert {r.kernel for r in ROWS} <= set(REDUCE_EXT_PASSES)


@pytest.mark.parametrize("kernel", sorted(REDUCE_EXT_PASSES))
@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_fp32_rows(chip, kernel):
    """(64, 1000) -> 64 rows: 4 B in per element, the 64 outputs spread over the units,
    passes x 4 B through the Vector unit, every element covered."""
    n, m = 64 * 1000, 64
    res = reduce_ext_tiling(chip, "R", kernel, n, m, T.ACL_FLOAT, T.ACL_FLOAT, 4, 4)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes, res.strategy) == (ReduceTilingKey.REDUCE, 0, "reduce")
    assert td.unit_bytes() == (4, m * 4 / n, 4 * REDUCE_EXT_PASSES[kernel])
    assert td.gm_bytes == 4 * (n + m)
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim


def test_fp16_adds_a_cast_pass_and_empty_is_a_fill():
    res = reduce_ext_tiling(TINY, "R", "LogSumExp", 4096, 8, T.ACL_FLOAT16, T.ACL_FLOAT16, 2, 2)
    assert res.data.cast == 1 and res.data.unit_bytes()[2] == 4 * (REDUCE_EXT_PASSES["LogSumExp"] + 1)
    fill = reduce_ext_tiling(TINY, "R", "Max", 0, 8, T.ACL_FLOAT, T.ACL_FLOAT, 4, 4)
    assert fill.strategy == "fill" and fill.data.unit_bytes() == (0, 4, 4)
