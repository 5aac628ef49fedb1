"""Gelu/Silu tiling without a device: chip config, shape and dtype in; key, tiling
data, block_dim and workspace out."""
import pytest

from npu_sim import PRESETS
from opsnn.activation.gelu.tiling import gelu_tiling
from opsnn.activation.gelu.tiling_data import GELU_COSTS, EltwiseTilingKey
from opsnn.base.dtypes import aclDataType as T

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
F32, F16, BF16 = T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BF16


def test_cost_table_rows():
    assert {k: (c.passes, c.tmp) for k, c in GELU_COSTS.items()} == \
        {"Gelu": (14, 1), "GeluV2Tanh": (8, 1), "Silu": (4, 1)}


@pytest.mark.parametrize("kernel", sorted(GELU_COSTS))
@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_fp32_activation(chip, kernel):
    """fp32 in, fp32 compute: no casts; the kernel's passes of 4 B and its one scratch row."""
    n = 37 * 129
    res = gelu_tiling(chip, kernel, [((37, 129), F32)], [F32], ((37, 129), F32), F32)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes, res.block_dim) == (EltwiseTilingKey.STREAM, 0, v.block_dim)
    assert (td.casts, td.broadcasts, td.n) == (0, 0, n)
    assert td.vec_bytes_per_unit == GELU_COSTS[kernel].passes * 4 and td.tmp_bytes_per_unit == 4
    assert v.ub_factor * (2 * (4 + 4) + 4) <= v.ub_bytes_used <= chip.ub_bytes
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim


@pytest.mark.parametrize("dt", [F16, BF16])
def test_half_input_computes_in_fp32(dt):
    """A 16-bit input: a cast in and a cast out (2 passes more), and a float32 row for
    the input and the result on top of the kernel's own (3 x 4 B)."""
    res = gelu_tiling(TINY, "Gelu", [((4096,), dt)], [F32], ((4096,), dt), F32)
    td = res.data
    assert td.casts == 2 and td.vec_bytes_per_unit == (14 + 2) * 4 and td.tmp_bytes_per_unit == 3 * 4
    assert (td.in_bytes_per_unit, td.out_bytes_per_unit, td.gm_bytes) == (2, 2, 4096 * 4)
    # 2 x (2 + 2) + 12 = 20 B of UB per element, as fp32's 2 x (4 + 4) + 4: the same
    # UB tile, floor(16384 / 20) = 819 rounded down to whole 32 B of input
    f32 = gelu_tiling(TINY, "Gelu", [((4096,), F32)], [F32], ((4096,), F32), F32).data.vector
    assert td.vector.ub_factor == f32.ub_factor == 816
