"""Cat tiling without a device: DMA bytes (output runs rounded to 32 B), cast pass, block_dim."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.transform.cat.infershape import infer_shape
from opsnn.transform.cat.tiling import cat_tiling
from opsnn.transform.cat.tiling_data import CatTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_cat_along_the_middle_axis():
    # [2, 3, 5] + [2, 4, 5] fp32 along dim 1 -> [2, 7, 5]: each input written as 2 runs,
    # 60 B -> 64 B and 80 B -> 96 B
    for chip in (TINY, B2):
        res = cat_tiling(chip, (2, 7, 5), 1, [3, 4], [120, 160], 4, False)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("copy", CatTilingKey.COPY, 0)
        assert td.numel == 70 and td.mte2_bytes == 280 and td.mte3_bytes == 2 * 64 + 2 * 96
        assert td.unit_bytes()[2] == 0
        assert v.total_units == 70 and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.ub_bytes_used <= chip.ub_bytes


def test_mixed_dtypes_pay_one_cast_pass():
    res = cat_tiling(TINY, (8, 16), 0, [4, 4], [4 * 16 * 2, 4 * 16 * 4], 4, True)
    assert res.data.unit_bytes()[2] == 4


def test_shape_and_dtype_inference_skips_legacy_empty_tensors():
    got = infer_shape([((0,), T.ACL_FLOAT16), ((2, 3), T.ACL_FLOAT16), ((4, 3), T.ACL_BF16)], 0)
    assert got == [((6, 3), T.ACL_FLOAT)]
    assert infer_shape([((2, 3), T.ACL_INT8), ((2, 5), T.ACL_UINT8)], -1) == [((2, 8), T.ACL_INT16)]
