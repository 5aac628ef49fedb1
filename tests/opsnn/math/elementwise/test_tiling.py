"""Elementwise-arithmetic tiling without a device: feed a chip config and operand
(shape, dtype) pairs, expect the key, tiling data, block_dim and workspace."""
import pytest

from npu_sim import PRESETS
from opsnn.base.dtypes import aclDataType as T
from opsnn.base.status import AclnnError
from opsnn.math.elementwise.tiling import elementwise_tiling
from opsnn.math.elementwise.tiling_data import ELEMENTWISE_COSTS, EltwiseTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
F32, F16, I32, I64 = T.ACL_FLOAT, T.ACL_FLOAT16, T.ACL_INT32, T.ACL_INT64


def _covers(v, chip):
    """Every unit is in exactly one block, blocks fit the chip's AIVs and its UB."""
    assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
    assert 1 <= v.block_dim <= chip.vector_core_count
    assert v.ub_bytes_used <= chip.ub_bytes and 1 <= v.ub_factor <= v.per_block


def test_cost_table_rows():
    assert set(ELEMENTWISE_COSTS) == {"Add", "Sub", "Mul", "Div", "Relu"}
    assert all(c.passes == 1 and c.tmp == 0 for c in ELEMENTWISE_COSTS.values())


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "ascend910b2"])
def test_fp16_add_computes_in_fp32(chip):
    """fp16 + fp16 -> fp16 in fp32: 3 casts + 1 add = 4 passes of 4 B; in 2 x 2 B,
    out 2 B; scratch: one fp32 row per operand and the result (3 x 4 B)."""
    shape = (64, 1000)
    res = elementwise_tiling(chip, "Add", [(shape, F16), (shape, F16)], [F32, F32], (shape, F16), F32)
    td, v = res.data, res.data.vector
    assert (res.tiling_key, res.workspace_bytes, res.block_dim) == (EltwiseTilingKey.STREAM, 0, v.block_dim)
    assert (td.casts, td.broadcasts, td.n, td.name) == (3, 0, 64000, "Add")
    assert (td.in_bytes_per_unit, td.out_bytes_per_unit, td.vec_bytes_per_unit, td.tmp_bytes_per_unit) == \
        (4, 2, 16, 12)
    assert td.gm_bytes == 64000 * (2 + 2 + 2)
    _covers(v, chip)
    # UB: double-buffered in + out plus scratch, per element
    assert v.ub_bytes_used >= v.ub_factor * (2 * (4 + 2) + 12)
    # a whole block per tile, or the largest tile of whole 32 B blocks of input
    # (8 elements of 4 B) that fits
    assert v.ub_factor == v.per_block or (v.ub_factor % 8 == 0 and
                                          (v.ub_factor + 8) * (2 * (4 + 2) + 12) > chip.ub_bytes)


def test_broadcast_operand_counted_at_its_own_size():
    res = elementwise_tiling(TINY, "Add", [((64, 1000), F32), ((1000,), F32)], [F32, F32], ((64, 1000), F32), F32,
                             extra_passes=1)
    td = res.data
    assert td.broadcasts == 1 and td.casts == 0 and td.tmp_bytes_per_unit == 0
    assert td.in_bytes_per_unit == 4 * 65000 / 64000
    assert td.vec_bytes_per_unit == 4 * (1 + 1 + 1)          # add + broadcast + alpha Muls
    assert td.gm_bytes == 4 * (65000 + 64000)
    _covers(td.vector, TINY)


def test_integer_mul_into_wider_out_casts_once():
    res = elementwise_tiling(TINY, "Mul", [((100,), I32), ((100,), I32)], [I32, I32], ((100,), I64), I32)
    td = res.data
    assert td.casts == 1 and td.out_bytes_per_unit == 8 and td.vec_bytes_per_unit == 2 * 4
    assert td.tmp_bytes_per_unit == 3 * 4
    assert res.block_dim == 1                               # 1600 B: below one block's minimum traffic


def test_ub_factor_is_whole_32_byte_blocks_of_input():
    """fp32 Relu: 2 x (4 + 4) B per element; a UB tile is a multiple of 8 elements
    (32 B of input) and the largest one that fits."""
    res = elementwise_tiling(TINY, "Relu", [((1 << 20,), F32)], [F32], ((1 << 20,), F32), F32)
    v = res.data.vector
    assert v.ub_factor % 8 == 0 and v.ub_factor * 16 <= TINY.ub_bytes < (v.ub_factor + 8) * 16
    assert v.block_dim == TINY.vector_core_count
    _covers(v, TINY)


def test_element_that_does_not_fit_ub_is_a_tiling_error():
    chip = TINY.model_copy(update={"ub_bytes": 16})
    with pytest.raises(AclnnError) as e:
        elementwise_tiling(chip, "Div", [((8,), F32), ((8,), F32)], [F32, F32], ((8,), F32), F32)
    assert e.value.code == 561002 and "Div" in str(e.value)
