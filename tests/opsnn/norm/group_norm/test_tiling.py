"""GroupNorm tiling without a device: a chip config in, strategy, key, rows, block_dim
and workspace out."""
import pytest

from npu_sim import PRESETS
from opsnn.base.status import AclnnError
from opsnn.norm.group_norm.infershape import infer_shape
from opsnn.norm.group_norm.tiling import REGISTRY, group_norm_tiling
from opsnn.norm.group_norm.tiling_data import GroupNormTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("fused", "multi_pass")


@pytest.mark.parametrize("chip", [TINY, B2], ids=lambda c: c.name)
def test_a_row_is_one_sample_and_group(chip):
    res = group_norm_tiling(chip, n=2, c=8, hxw=6, group=4, itemsize=4)
    td = res.data
    assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("fused", GroupNormTilingKey.FUSED, 0)
    assert (td.rows, td.row_elems) == (2 * 4, (8 // 4) * 6)
    (v,) = td.vector
    assert v.total_units == 8 and res.block_dim == v.block_dim <= chip.vector_core_count


def test_long_groups_go_multi_pass_with_stats_workspace():
    """64 channels of 32 x 32 in one group: 256 KiB of fp32 per row, far over tiny's UB."""
    res = group_norm_tiling(TINY, n=3, c=64, hxw=32 * 32, group=1, itemsize=4)
    assert res.strategy == "multi_pass" and res.candidates == ("fused", "multi_pass")
    assert res.tiling_key == GroupNormTilingKey.MULTI_PASS
    assert res.workspace_bytes == 3 * 8 + (-(3 * 8) % 32)      # fp32 (mean, rstd) per row, 32 B rounded
    assert len(res.data.vector) == 2


def test_forced_fused_that_does_not_fit():
    with pytest.raises(AclnnError) as e:
        group_norm_tiling(TINY, 1, 64, 1024, 1, 4, strategy="fused")
    assert e.value.code == 561002


def test_infershape():
    f32 = object()
    assert infer_shape((2, 6, 4, 4), f32, 2, 3) == [((2, 6, 4, 4), f32), ((2, 3), f32), ((2, 3), f32)]
