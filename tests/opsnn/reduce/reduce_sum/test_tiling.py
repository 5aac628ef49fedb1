"""ReduceSum tiling without a device: strategy, key, per-unit bytes, block_dim, workspace."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.reduce.common.infershape import infer_shape, out_shape, reduce_pattern, reduced_axes
from opsnn.reduce.common.tiling import reduce_tiling
from opsnn.reduce.common.tiling_data import ReduceTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_rows_reduced_one_unit_per_input_element():
    # [64, 1000] fp32 summed along the last axis into 64 fp32
    for chip in (TINY, B2):
        res = reduce_tiling(chip, "ReduceSum", 64000, 64, T.ACL_FLOAT, T.ACL_FLOAT, 4, 4)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("reduce", ReduceTilingKey.REDUCE, 0)
        assert v.total_units == 64000 and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < 64000 <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes
        # read each element once; 256 B of outputs spread over the units; one fp32 add, no cast
        assert td.unit_bytes() == (4, 64 * 4 / 64000, 4) and td.gm_bytes == 64000 * 4 + 256


def test_cast_pass_unless_fp32_or_same_width_int():
    def cast(s, o, item):
        return reduce_tiling(TINY, "ReduceSum", 100, 10, s, o, item, 4).data.cast
    assert cast(T.ACL_FLOAT, T.ACL_FLOAT, 4) == 0
    assert cast(T.ACL_INT32, T.ACL_INT32, 4) == 0
    assert cast(T.ACL_FLOAT16, T.ACL_FLOAT, 2) == 1
    assert cast(T.ACL_INT8, T.ACL_INT32, 1) == 1
    assert reduce_tiling(TINY, "ReduceSum", 100, 10, T.ACL_FLOAT16, T.ACL_FLOAT, 2, 4).data.unit_bytes()[2] == 8


def test_empty_reduction_is_a_fill_of_the_outputs():
    res = reduce_tiling(TINY, "ReduceSum", 0, 12, T.ACL_FLOAT, T.ACL_FLOAT, 4, 4)
    assert res.strategy == "fill" and res.data.vector.total_units == 12
    assert res.data.unit_bytes() == (0, 4, 4) and res.data.gm_bytes == 48


def test_shapes_and_pattern():
    assert reduced_axes([], 3) == [0, 1, 2] and reduced_axes([-1, 0], 3) == [0, 2] and reduced_axes([], 0) == []
    assert out_shape((2, 3, 4), [0, 2], False) == (3,) and out_shape((2, 3, 4), [0, 2], True) == (1, 3, 1)
    assert reduce_pattern((2, 3, 4, 5), [1, 2]) == ("ARA", [2, 12, 5])
    assert infer_shape((4, 10), [1], True, T.ACL_FLOAT16) == [((4, 1), T.ACL_FLOAT16)]
