"""Comparison tiling without a device."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.compare.op_api import ROWS
from opsnn.math.compare.tiling import compare_tiling
from opsnn.math.compare.tiling_data import COMPARE_COSTS

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_every_row_has_a_cost_row():
    assert {r.kernel for r in ROWS} == set(COMPARE_COSTS) and len(ROWS) == 2 * len(COMPARE_COSTS)


def test_fp16_with_broadcast_other_writes_bool():
    """fp16 vs a broadcast fp16 row, float32 compute, BOOL out: two input casts, one
    broadcast pass, the row read once (its own size), 1 B out per element."""
    for chip in (TINY, B2):
        res = compare_tiling(chip, "Gt", [((64, 256), T.ACL_FLOAT16), ((256,), T.ACL_FLOAT16)],
                             [T.ACL_FLOAT, T.ACL_FLOAT], ((64, 256), T.ACL_BOOL), T.ACL_BOOL)
        td, v = res.data, res.data.vector
        assert (td.casts, td.broadcasts, td.n) == (2, 1, 64 * 256)
        assert td.vec_bytes_per_unit == (1 + 2 + 1) * 4
        assert td.in_bytes_per_unit == 2 * (64 * 256 + 256) / (64 * 256) and td.out_bytes_per_unit == 1
        assert td.gm_bytes == 2 * (64 * 256 + 256) + 64 * 256
        assert v.per_block * (v.block_dim - 1) < td.n <= v.per_block * v.block_dim
        assert res.workspace_bytes == 0
