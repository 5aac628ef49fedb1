"""AddRmsNorm tiling without a device: the fused/multi-pass switch point from the UB
budget, chunk coverage, workspace and keys."""
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.norm.add_rms_norm.tiling import REGISTRY, AddRmsNormTilingContext, add_rms_norm_tiling
from opsnn.norm.add_rms_norm.tiling_data import RSTD_BYTES, AddRmsNormTilingKey
from opsnn.norm.common.tiling_data import ROW_SCALAR_UB_BYTES

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def _fused_ub(d, item):
    d_ub = -(-d // (32 // item)) * (32 // item)
    tmp = 4 * (1 + (item != 4))
    # x1, x2 in and y, x out, double buffered, + rstd; fp32 work row(s); scalars; gamma fp32 resident
    return 2 * (4 * d_ub * item + RSTD_BYTES) + d_ub * tmp + ROW_SCALAR_UB_BYTES + -(-4 * d // 32) * 32


@pytest.mark.parametrize("item", [4, 2])
def test_fused_while_a_row_fits_then_multi_pass(item):
    fits = max(d for d in range(8, 4096, 8) if _fused_ub(d, item) <= TINY.ub_bytes)
    res = add_rms_norm_tiling(TINY, 10, fits, item, item)
    assert res.strategy == "fused" and res.tiling_key == AddRmsNormTilingKey.FUSED and res.workspace_bytes == 0
    assert AddRmsNormTilingContext(TINY, 10, fits, item, item).fused_ub_bytes() == _fused_ub(fits, item)
    res = add_rms_norm_tiling(TINY, 10, fits + 8, item, item)
    assert res.strategy == "multi_pass" and res.tiling_key == AddRmsNormTilingKey.MULTI_PASS
    td = res.data
    assert td.chunks_per_row * td.chunk_elems >= td.d > (td.chunks_per_row - 1) * td.chunk_elems
    assert td.chunk_elems * item % 32 == 0
    assert res.workspace_bytes == -(-10 * RSTD_BYTES // 32) * 32
    for v in td.vector:
        assert v.total_units == 10 * td.chunks_per_row and v.ub_bytes_used <= TINY.ub_bytes


def test_910b2_rows_spread_over_vector_cores():
    res = add_rms_norm_tiling(B2, 4096, 4096, 2, 2)
    assert res.strategy == "fused" and res.block_dim == B2.vector_core_count
    v = res.data.vector[0]
    assert v.per_block * (v.block_dim - 1) < 4096 <= v.per_block * v.block_dim


def test_forced_fused_that_does_not_fit_is_561002():
    with pytest.raises(AclnnError) as e:
        add_rms_norm_tiling(TINY, 2, 8192, 4, 4, "fused")
    assert e.value.code == 561002
    assert list(REGISTRY.names) == ["fused", "multi_pass"]
