"""Unary-activation tiling without a device: chip config, shape and dtype in; key,
tiling data, block_dim and workspace out."""
import pytest

from npu_sim import PRESETS
from opsnn.activation.unary_activation.op_api import ROWS
from opsnn.activation.unary_activation.tiling import activation_tiling
from opsnn.activation.unary_activation.tiling_data import ACTIVATION_COSTS, EltwiseTilingKey
from opsnn.base.dtypes import aclDataType as T

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
F32, F16, BF16 = T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16


def test_every_row_has_a_cost_row():
    assert {r.kernel for r in ROWS} == set(ACTIVATION_COSTS)
    assert all(c.passes >= 1 for c in ACTIVATION_COSTS.values())


@pytest.mark.parametrize("kernel", sorted(ACTIVATION_COSTS))
@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_fp32_activation(chip, kernel):
    """fp32: no casts; passes x 4 B of Vector traffic, scratch rows x 4 B of UB, the
    double-buffered in + out slots within UB, every element in exactly one block."""
    n = 37 * 129
    cost = ACTIVATION_COSTS[kernel]
    res = activation_tiling(chip, kernel, [((37, 129), F32)], [F32], ((37, 129), F32), F32)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes, res.block_dim) == (EltwiseTilingKey.STREAM, 0, v.block_dim)
    assert (td.casts, td.broadcasts, td.n) == (0, 0, n)
    assert td.vec_bytes_per_unit == cost.passes * 4 and td.tmp_bytes_per_unit == cost.tmp * 4
    assert v.ub_factor * (2 * (4 + 4) + cost.tmp * 4) <= v.ub_bytes_used <= chip.ub_bytes
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim
    assert 1 <= v.block_dim <= chip.vector_core_count


@pytest.mark.parametrize("dt", [F16, BF16])
def test_half_input_casts_in_and_out(dt):
    """16-bit in and out, float32 compute: two casts, a float32 row for input and
    result on top of the kernel's own rows, 2 B per element over GM each way."""
    res = activation_tiling(TINY, "Mish", [((4096,), dt)], [F32], ((4096,), dt), F32)
    td = res.data
    cost = ACTIVATION_COSTS["Mish"]
    assert td.casts == 2 and td.vec_bytes_per_unit == (cost.passes + 2) * 4
    assert td.tmp_bytes_per_unit == (2 + cost.tmp) * 4
    assert (td.in_bytes_per_unit, td.out_bytes_per_unit, td.gm_bytes) == (2, 2, 4096 * 4)


def test_blocks_grow_with_the_problem_then_saturate():
    small = activation_tiling(B2, "Sigmoid", [((1024,), F32)], [F32], ((1024,), F32), F32)
    big = activation_tiling(B2, "Sigmoid", [((1 << 22,), F32)], [F32], ((1 << 22,), F32), F32)
    assert small.block_dim < big.block_dim == B2.vector_core_count
