"""Permute tiling without a device: merged permutation, strategy, bytes, block_dim."""
from npu_sim import PRESETS
from opsnn.transform.permute.infershape import infer_shape, merge_perm
from opsnn.transform.permute.tiling import permute_tiling
from opsnn.transform.permute.tiling_data import PermuteTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_identity_after_merging_is_a_copy():
    res = permute_tiling(TINY, (2, 1, 4, 5), [0, 2, 1, 3], 4)
    td = res.data
    assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("copy", PermuteTilingKey.PERMUTE, 0)
    assert td.merged_perm == (0,) and td.merged_shape == (40,)
    # one run of 40 fp32 = 160 B, already whole 32 B blocks
    assert td.mte3_bytes == 160 and td.unit_bytes() == (4, 4.0, 0)


def test_last_axis_kept_is_a_dma_permute_with_block_rounded_runs():
    # [2, 3, 4, 5] by [1, 0, 2, 3]: runs of 4 * 5 = 20 fp16 = 40 B -> 64 B, 6 of them
    res = permute_tiling(TINY, (2, 3, 4, 5), [1, 0, 2, 3], 2)
    td = res.data
    assert res.strategy == "dma_permute" and td.merged_perm == (1, 0, 2)
    assert td.mte3_bytes == 6 * 64 and td.unit_bytes()[2] == 0 and td.gm_bytes == 120 * 2 + 6 * 64


def test_last_axis_moving_is_a_vector_transpose():
    for chip in (TINY, B2):
        res = permute_tiling(chip, (384, 512), [1, 0], 2)
        td, v = res.data, res.data.vector
        assert res.strategy == "transpose" and td.mte3_bytes == 384 * 512 * 2 and td.unit_bytes() == (2, 2.0, 2)
        assert v.total_units == 384 * 512 and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes


def test_shape_inference():
    assert infer_shape((2, 3, 4), "f", [-1, 0, 1]) == [((4, 2, 3), "f")]
    assert merge_perm((2, 3, 4, 5), [2, 3, 0, 1]) == ([1, 0], [6, 20])
