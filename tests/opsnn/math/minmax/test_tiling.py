"""Min/max and modulo tiling without a device."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.minmax.op_api import ROWS
from opsnn.math.minmax.tiling import minmax_tiling
from opsnn.math.minmax.tiling_data import MINMAX_COSTS

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_every_row_has_a_cost_row():
    assert {r.kernel for r in ROWS} == set(MINMAX_COSTS)


def test_remainder_keeps_a_scratch_row_and_fits_ub():
    for chip in (TINY, B2):
        n = 3 * 10**5
        res = minmax_tiling(chip, "Remainder", [((n,), T.ACL_FLOAT)] * 2, [T.ACL_FLOAT] * 2, ((n,), T.ACL_FLOAT),
                            T.ACL_FLOAT)
        td, v = res.data, res.data.vector
        assert td.vec_bytes_per_unit == 4 * 4 and td.tmp_bytes_per_unit == 4
        assert v.ub_factor * (2 * (8 + 4) + 4) <= v.ub_bytes_used <= chip.ub_bytes
        assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim
        assert res.block_dim == v.block_dim and res.workspace_bytes == 0
