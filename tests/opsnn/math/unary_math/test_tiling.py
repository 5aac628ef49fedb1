"""Unary-math tiling without a device."""
import pytest

from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.unary_math.op_api import ROWS
from opsnn.math.unary_math.tiling import unary_math_tiling
from opsnn.math.unary_math.tiling_data import UNARY_MATH_COSTS, EltwiseTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
F32, F16, I32, BOOL = T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_INT32, T.ACL_BOOL


def test_every_row_has_a_cost_row():
    assert {r.kernel for r in ROWS} == set(UNARY_MATH_COSTS)


@pytest.mark.parametrize("kernel", sorted(UNARY_MATH_COSTS))
@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_fp32(chip, kernel):
    n = 1000 * 33 + 7
    cost = UNARY_MATH_COSTS[kernel]
    res = unary_math_tiling(chip, kernel, [((n,), F32)], [F32], ((n,), F32), F32)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes) == (EltwiseTilingKey.STREAM, 0)
    assert td.vec_bytes_per_unit == cost.passes * 4 and td.tmp_bytes_per_unit == cost.tmp * 4
    assert v.ub_factor * (16 + cost.tmp * 4) <= v.ub_bytes_used <= chip.ub_bytes
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim


def test_int32_exp_casts_in_only():
    """int32 in, float32 compute and out: one cast; a float32 row per operand and result."""
    res = unary_math_tiling(TINY, "Exp", [((4096,), I32)], [F32], ((4096,), F32), F32)
    assert res.data.casts == 1 and res.data.vec_bytes_per_unit == (1 + 1) * 4 and res.data.tmp_bytes_per_unit == 8


def test_isnan_of_fp16_writes_one_byte():
    """fp16 in computing in float32, BOOL out: one cast in, 1 B per element over MTE3."""
    res = unary_math_tiling(TINY, "IsNan", [((4096,), F16)], [F32], ((4096,), BOOL), BOOL)
    td = res.data
    assert (td.in_bytes_per_unit, td.out_bytes_per_unit, td.casts) == (2, 1, 1)
    assert td.gm_bytes == 4096 * 3
