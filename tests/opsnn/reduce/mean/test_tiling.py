"""Mean tiling without a device (the tiling is ReduceSum's; Mean's dtypes are float only)."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.reduce.common.tiling import reduce_tiling

TINY = PRESETS["tiny"]


def test_bf16_mean_casts_and_streams_every_element():
    # [8, 384] bf16 -> [8] bf16: one fp32 add + a cast pass per element
    res = reduce_tiling(TINY, "Mean", 8 * 384, 8, T.ACL_BF16, T.ACL_BF16, 2, 2)
    td, v = res.data, res.data.vector
    assert res.strategy == "reduce" and td.cast == 1 and td.unit_bytes() == (2, 16 / 3072, 8)
    assert v.total_units == 3072 and v.ub_bytes_used <= TINY.ub_bytes


def test_mean_over_an_empty_axis_fills_nan_outputs():
    res = reduce_tiling(TINY, "Mean", 0, 5, T.ACL_FLOAT, T.ACL_FLOAT, 4, 4)
    assert res.strategy == "fill" and res.data.vector.total_units == 5
