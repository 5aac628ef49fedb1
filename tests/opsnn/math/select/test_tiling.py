"""Selection tiling without a device: chip config and operand (shape, dtype) pairs
in; key, tiling data, block_dim and workspace out."""
from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.math.select.tiling import select_tiling
from opsnn.math.select.tiling_data import SELECT_COSTS, EltwiseTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
F32, F16, BOOL, I8 = T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_BOOL, T.ACL_INT8


def test_cost_table_rows():
    assert {k: c.passes for k, c in SELECT_COSTS.items()} == {"Where": 1, "Eq": 2, "Equal": 3}


def test_where_with_broadcast_condition():
    """condition [1, 512] bool over [64, 512] fp16 operands computed in fp32: two
    input casts and one output cast; the condition is read once per element of its
    own, a broadcast pass on VECTOR."""
    shape = (64, 512)
    n = 64 * 512
    res = select_tiling(B2, "Where", [((1, 512), BOOL), (shape, F16), (shape, F16)], [BOOL, F32, F32],
                        (shape, F16), F32, name="SWhere")
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes, td.name) == (EltwiseTilingKey.STREAM, 0, "SWhere")
    assert (td.casts, td.broadcasts) == (3, 1)
    assert td.in_bytes_per_unit == (512 * 1 + 2 * n * 2) / n
    assert td.vec_bytes_per_unit == (1 + 3 + 1) * 4
    assert td.tmp_bytes_per_unit == 4 * 4                  # a cast row per operand and the result
    assert res.block_dim == v.block_dim <= B2.vector_core_count
    assert v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim


def test_equal_writes_one_element():
    """Equal reduces n compared pairs into one bool: no MTE3 bytes per element, the
    one output byte counted once in the GM traffic."""
    res = select_tiling(TINY, "Equal", [((300,), I8), ((300,), I8)], [I8, I8], ((1,), BOOL), BOOL, n=300,
                        out_units=False)
    td = res.data
    assert td.out_bytes_per_unit == 0 and td.gm_bytes == 2 * 300 + 1
    assert td.casts == 0 and td.vec_bytes_per_unit == 3 * 1


def test_eq_result_cast_to_bool_out():
    res = select_tiling(TINY, "Eq", [((40,), F32), ((40,), F32)], [F32, F32], ((40,), BOOL), BOOL)
    td = res.data
    # the compare's bool result is the compute type of out: no cast; 2 passes of 4 B
    assert td.casts == 0 and td.vec_bytes_per_unit == 2 * 4 and td.out_bytes_per_unit == 1
    assert res.block_dim == 1
