"""Pointwise-math tiling without a device: chip config and operand (shape, dtype)
pairs in; key, tiling data, block_dim and workspace out."""
import pytest

from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.pointwise.tiling import pointwise_tiling
from opsnn.math.pointwise.tiling_data import POINTWISE_COSTS, EltwiseTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
F32, F16, I32 = T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_INT32


def test_cost_table_rows():
    assert set(POINTWISE_COSTS) == {"Erf", "Sqrt", "Pow", "Clamp", "ClampHi"}
    # the transcendental kernels keep one compute-typed scratch row
    assert {k for k, c in POINTWISE_COSTS.items() if c.tmp} == {"Erf", "Pow"}


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_erf_of_int32_computes_in_fp32(chip):
    """int32 -> fp32: one input cast, no output cast; scratch: a cast row per operand
    and result (2 x 4 B) plus Erf's own row (4 B)."""
    n = 1 << 16
    res = pointwise_tiling(chip, "Erf", [((n,), I32)], [F32], ((n,), F32), F32)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes, res.block_dim) == (EltwiseTilingKey.STREAM, 0, v.block_dim)
    assert (td.casts, td.broadcasts) == (1, 0)
    assert td.vec_bytes_per_unit == (POINTWISE_COSTS["Erf"].passes + 1) * 4
    assert td.tmp_bytes_per_unit == 2 * 4 + 4
    slot = 2 * (4 + 4) + td.tmp_bytes_per_unit
    assert v.ub_factor * slot <= v.ub_bytes_used <= chip.ub_bytes
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim <= n + v.per_block


def test_one_sided_clamp_drops_a_pass():
    both = pointwise_tiling(TINY, "Clamp", [((512,), F16)], [F32], ((512,), F16), F32)
    one = pointwise_tiling(TINY, "Clamp", [((512,), F16)], [F32], ((512,), F16), F32, extra_passes=-1)
    assert both.data.vec_bytes_per_unit - one.data.vec_bytes_per_unit == 4
    assert both.data.casts == 2 and both.data.vec_bytes_per_unit == (2 + 2) * 4


def test_pow_with_broadcast_exponent():
    res = pointwise_tiling(TINY, "Pow", [((8, 256), F32), ((256,), F32)], [F32, F32], ((8, 256), F32), F32,
                           name="Pow")
    td = res.data
    assert td.n == 2048 and td.broadcasts == 1 and td.name == "Pow"
    assert td.in_bytes_per_unit == 4 * (2048 + 256) / 2048 and td.gm_bytes == 4 * (2048 + 256 + 2048)
    assert td.vec_bytes_per_unit == (3 + 1) * 4 and td.tmp_bytes_per_unit == 4
