"""RmsNorm tiling without a device: feed a chip config, expect the strategy, key,
tiling data, block_dim and workspace (as ops-nn's op_host tiling tests do)."""
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.norm.rms_norm.infershape import infer_shape
from opsnn.norm.rms_norm.op_def import RMS_NORM
from opsnn.norm.rms_norm.tiling import REGISTRY, rms_norm_tiling
from opsnn.norm.rms_norm.tiling_data import RmsNormTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
SCALARS = 64  # per-row fp32 scalar blocks in UB


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("fused", "multi_pass")


def test_short_rows_go_fused_without_workspace():
    for chip in (TINY, B2):
        res = rms_norm_tiling(chip, rows=100, d=48, itemsize=2, gamma_itemsize=2)
        td = res.data
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("fused", RmsNormTilingKey.FUSED, 0)
        (v,) = td.vector
        assert v.total_units == 100 and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < 100 <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes


def test_fused_ub_budget_counts_gamma_and_the_fp32_rstd():
    # fp32 x and gamma: in (4d) and out (4d + 4 B rstd) double-buffered, an fp32 work
    # row (4d), gamma resident as fp32 (4d, 32 B padded) and the row scalars
    d_fit = (TINY.ub_bytes - SCALARS - 2 * 4) // 24 // 8 * 8
    res = rms_norm_tiling(TINY, 3, d_fit, 4, 4)
    assert res.strategy == "fused" and res.data.ub_bytes_needed_fused == 24 * d_fit + 8 + SCALARS
    res = rms_norm_tiling(TINY, 3, d_fit + 8, 4, 4)
    assert res.strategy == "multi_pass" and res.candidates == ("fused", "multi_pass")


def test_long_rows_go_multi_pass():
    res = rms_norm_tiling(TINY, rows=3, d=3000, itemsize=4, gamma_itemsize=4)
    td = res.data
    assert res.strategy == "multi_pass" and res.tiling_key == RmsNormTilingKey.MULTI_PASS
    assert res.workspace_bytes == 32 and td.chunks_per_row >= 2
    assert td.chunk_elems * td.chunks_per_row >= 3000 and (td.chunk_elems * 4) % 32 == 0
    assert all(v.total_units == 3 * td.chunks_per_row and v.ub_bytes_used <= TINY.ub_bytes for v in td.vector)


def test_forced_strategy_and_errors():
    assert rms_norm_tiling(B2, 8, 64, 4, 4, strategy="multi_pass").strategy == "multi_pass"
    with pytest.raises(AclnnError) as e:
        rms_norm_tiling(TINY, 2, 5000, 4, 4, strategy="fused")
    assert e.value.code == 561002 and "aclnnRmsNorm: fused strategy needs" in str(e.value)
    with pytest.raises(AclnnError) as e:
        rms_norm_tiling(TINY, 2, 8, 4, 4, strategy=1)
    assert e.value.code == 161002


def test_infershape_and_op_def():
    f = RMS_NORM.outputs[0]
    assert [p.name for p in RMS_NORM.params] == ["x", "gamma", "epsilon", "yOut", "rstdOut"] and f.name == "yOut"
    assert RMS_NORM.attrs[0].default == 1e-6 and RMS_NORM.name == "rms_norm"
    (y, ydt), (r, rdt) = infer_shape((2, 3, 8), "x-dtype", (3, 8))
    assert (y, ydt, r, rdt.name) == ((2, 3, 8), "x-dtype", (2, 1, 1), "ACL_FLOAT")
