"""LayerNorm tiling without a device: feed a chip config, expect the strategy, key,
tiling data, block_dim and workspace (as ops-nn's op_host tiling tests do)."""
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.norm.layer_norm.tiling import REGISTRY, layer_norm_tiling
from opsnn.norm.layer_norm.tiling_data import LayerNormTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
#: per-row fp32 scalars the kernels keep in UB (sum, mean, rstd blocks)
SCALARS = 64


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("fused", "multi_pass")


def test_short_rows_go_fused_on_every_preset():
    for chip in (TINY, B2):
        res = layer_norm_tiling(chip, rows=203, d=37, itemsize=4, weight_itemsize=4, n_affine=2, n_stats=2)
        td = res.data
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("fused", LayerNormTilingKey.FUSED, 0)
        assert res.candidates == ("fused",)
        assert (td.rows, td.row_elems, td.chunk_elems, td.chunks_per_row) == (203, 37, 37, 1)
        (v,) = td.vector
        assert v.total_units == 203 and res.block_dim == v.block_dim <= chip.vector_core_count
        # every row is covered, and one block's UB use fits the chip
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes


def test_fused_ub_budget_is_exact():
    # fp32 rows padded to 8 elements: in + out double-buffered (2 * 8d) + an fp32 work
    # row (4d) + the row scalars; no weight/bias, no statistics outputs
    d_fit = (TINY.ub_bytes - SCALARS) // 20 // 8 * 8
    res = layer_norm_tiling(TINY, 4, d_fit, 4)
    assert res.strategy == "fused" and res.data.ub_bytes_needed_fused == 20 * d_fit + SCALARS <= TINY.ub_bytes
    res = layer_norm_tiling(TINY, 4, d_fit + 1, 4)
    assert res.strategy == "multi_pass" and res.candidates == ("fused", "multi_pass")
    # fp32 weight and bias resident in UB cost 4 B an element each (rows padded to 32 B)
    d_aff = (TINY.ub_bytes - SCALARS) // 28 // 8 * 8
    assert layer_norm_tiling(TINY, 4, d_aff, 4, 4, n_affine=2).strategy == "fused"
    assert layer_norm_tiling(TINY, 4, d_aff + 8, 4, 4, n_affine=2).strategy == "multi_pass"


def test_long_rows_go_multi_pass_with_a_statistics_workspace():
    res = layer_norm_tiling(TINY, rows=3, d=2000, itemsize=4, weight_itemsize=4, n_affine=2, n_stats=2)
    td = res.data
    assert res.strategy == "multi_pass" and res.tiling_key == LayerNormTilingKey.MULTI_PASS
    assert res.workspace_bytes == td.workspace_bytes == 32  # 3 rows x fp32 (mean, rstd), to 32 B
    c, cpr = td.chunk_elems, td.chunks_per_row
    assert (c * 4) % 32 == 0 and c * cpr >= 2000 and c * (cpr - 1) < 2000
    stats, apply = td.vector
    assert stats.total_units == apply.total_units == 3 * cpr and res.block_dim == stats.block_dim
    # the apply pass's UB: x in + y out double-buffered, an fp32 work row, fp32
    # weight + bias chunks, the row scalars and double-buffered statistics
    assert 2 * (4 + 4) * c + 4 * c + 2 * 4 * c + SCALARS + 2 * (8 + 8) <= TINY.ub_bytes
    assert stats.ub_bytes_used <= TINY.ub_bytes and apply.ub_bytes_used <= TINY.ub_bytes


def test_few_rows_are_split_to_fill_the_cores():
    # 5 rows of 3000 fp32 on 910B2 fit fused; forced multi-pass cuts the rows so that
    # more than 5 vector cores get work, but no finer than 4 KiB-of-input chunks would
    # (ceil(12000 B / 4096 B) = 3 a row), and into equal 32 B-multiple chunks
    res = layer_norm_tiling(B2, 5, 3000, 4, strategy="multi_pass")
    td = res.data
    assert 2 <= td.chunks_per_row <= -(-3000 * 4 // 4096)
    assert (td.chunk_elems * 4) % 32 == 0 and td.chunk_elems * (td.chunks_per_row - 1) < 3000
    assert td.vector[0].block_dim > 5


def test_forced_strategy_and_errors():
    assert layer_norm_tiling(B2, 8, 64, 4, strategy="multi_pass").strategy == "multi_pass"
    with pytest.raises(AclnnError) as e:
        layer_norm_tiling(TINY, 2, 3000, 4, strategy="fused")
    assert e.value.code == 561002 and "aclnnLayerNorm: fused strategy needs" in str(e.value)
    assert "tiny has 16384 B" in str(e.value)
    with pytest.raises(AclnnError) as e:
        layer_norm_tiling(TINY, 2, 8, 4, strategy="fast")
    assert e.value.code == 161002 and "strategy must be one of fused, multi_pass or None" in str(e.value)
