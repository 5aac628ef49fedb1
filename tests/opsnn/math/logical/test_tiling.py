"""Logical/bitwise tiling without a device."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.logical.op_api import ROWS, UNARY_ROWS
from opsnn.math.logical.tiling import logical_tiling
from opsnn.math.logical.tiling_data import LOGICAL_COSTS

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_every_row_has_a_cost_row():
    assert {r.kernel for r in ROWS + UNARY_ROWS} == set(LOGICAL_COSTS)


def test_bool_and_moves_one_byte_each_way():
    for chip in (TINY, B2):
        n = 1 << 15
        res = logical_tiling(chip, "LogicalAnd", [((n,), T.ACL_BOOL)] * 2, [T.ACL_BOOL] * 2, ((n,), T.ACL_BOOL),
                             T.ACL_BOOL)
        td, v = res.data, res.data.vector
        assert (td.casts, td.broadcasts, td.in_bytes_per_unit, td.out_bytes_per_unit) == (0, 0, 2, 1)
        assert td.vec_bytes_per_unit == LOGICAL_COSTS["LogicalAnd"].passes * 1
        assert v.ub_factor * (2 * 3 + LOGICAL_COSTS["LogicalAnd"].tmp) <= v.ub_bytes_used <= chip.ub_bytes
        assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim


def test_int64_xor_costs_more_than_and():
    xor = logical_tiling(TINY, "BitwiseXor", [((512,), T.ACL_INT64)] * 2, [T.ACL_INT64] * 2, ((512,), T.ACL_INT64),
                         T.ACL_INT64)
    and_ = logical_tiling(TINY, "BitwiseAnd", [((512,), T.ACL_INT64)] * 2, [T.ACL_INT64] * 2,
                          ((512,), T.ACL_INT64), T.ACL_INT64)
    assert xor.data.vec_bytes_per_unit == 4 * 8 and and_.data.vec_bytes_per_unit == 8
