"""Transform-family tiling without a device (Pad, Split, Repeat, Triu, DepthToSpace,
Arange, OneHot, Cumsum, Gather*, Scatter*, Topk, ArgMax): byte totals from the 32 B
DMA-block rule derived here by hand, block coverage, UB budget, strategy and key."""
import pytest

from npu_sim import PRESETS
from opsnn.transform.arange.tiling import arange_tiling
from opsnn.transform.arg_max.tiling import arg_tiling
from opsnn.transform.common.move_tiling import MoveTilingKey, row_bytes
from opsnn.transform.cumsum.tiling import cumsum_tiling
from opsnn.transform.depth_to_space.tiling import space_depth_tiling
from opsnn.transform.gather.tiling import gather_nd_tiling, gather_tiling
from opsnn.transform.one_hot.tiling import one_hot_tiling
from opsnn.transform.pad.tiling import pad_tiling
from opsnn.transform.repeat.tiling import repeat_tiling
from opsnn.transform.scatter.tiling import scatter_tiling
from opsnn.transform.split.tiling import split_tiling
from opsnn.transform.topk.tiling import sort_passes, topk_tiling
from opsnn.transform.triangular.tiling import triangular_tiling

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def _covers(res, chip):
    v = res.data.vector
    assert res.block_dim == v.block_dim <= chip.vector_core_count and res.workspace_bytes == 0
    assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
    assert v.ub_bytes_used <= chip.ub_bytes


def test_row_bytes_rounds_each_run_to_32_bytes():
    assert row_bytes((3, 5), 4) == 3 * 32 and row_bytes((2, 8), 4) == 2 * 32 and row_bytes((), 2) == 32


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "b2"])
def test_constant_pad_duplicates_the_border_and_others_refetch_it(chip):
    c = pad_tiling(chip, (4, 6), (6, 10), "constant", 2)
    # in: 4 rows of 12 B -> 32 B; out: 6 rows of 20 B -> 32 B; border 60 - 24 elements
    assert (c.strategy, c.data.mte2_bytes, c.data.mte3_bytes, c.data.vector_bytes) == ("constant", 128, 192, 72)
    assert c.tiling_key == MoveTilingKey.VECTOR
    r = pad_tiling(chip, (4, 6), (6, 10), "reflect", 2)
    assert r.data.vector_bytes == 0 and r.data.mte2_bytes == 192 and r.tiling_key == MoveTilingKey.COPY
    _covers(c, chip)


def test_split_writes_each_piece_in_rounded_runs():
    res = split_tiling(TINY, (4, 10), 1, [3, 7], 4)
    assert res.data.mte2_bytes == 160 and res.data.mte3_bytes == 4 * 32 + 4 * 32
    assert dict(res.data.params)["pieces"] == 2


def test_repeat_reads_one_copy_per_repeat():
    res = repeat_tiling(TINY, (1, 2, 3), (2, 4, 9), 4)
    assert dict(res.data.params)["copies"] == 12 and res.data.mte2_bytes == 12 * 2 * 32
    assert res.data.mte3_bytes == 8 * 64


def test_vector_ops_charge_one_pass_per_element():
    for res, n in ((triangular_tiling(TINY, "Triu", 100, 4, 0), 100),
                   (space_depth_tiling(TINY, "DepthToSpace", "DCR", 100, 4), 100)):
        assert res.data.mte2_bytes == res.data.mte3_bytes == res.data.vector_bytes == n * 4
    a = arange_tiling(TINY, 50, 8)
    assert a.data.mte2_bytes == 0 and a.data.mte3_bytes == 400


def test_index_ops_pay_a_block_per_random_access():
    g = gather_tiling(TINY, 10, 2, 8)
    assert g.data.mte2_bytes == 10 * (8 + 32) and g.tiling_key == MoveTilingKey.GATHER
    nd = gather_nd_tiling(TINY, 6, 5, 2, 4, 4)
    assert nd.data.mte2_bytes == 6 * (8 + 32) and nd.data.units == 6
    s = scatter_tiling(TINY, "Scatter", 100, 4, 10, 1, 80, "add")
    assert s.data.mte3_bytes == 400 + 10 * 32 and s.data.mte2_bytes == 400 + 40 + 80 + 320
    assert s.data.vector_bytes == 40 and s.tiling_key == MoveTilingKey.SCATTER
    o = one_hot_tiling(TINY, 8, 5, 8, 4)
    assert o.data.units == 40 and o.data.mte3_bytes == 160


def test_sort_passes_and_topk_bytes():
    assert [sort_passes(n) for n in (1, 32, 33, 64, 65, 1024)] == [1, 1, 2, 2, 3, 6]
    t = topk_tiling(B2, 4, 64, 3, 2)
    assert t.data.mte3_bytes == 4 * 3 * (2 + 8) and t.data.vector_bytes == 256 * 2 * 6
    assert arg_tiling(TINY, "ArgMax", 60, 6, 4).data.mte3_bytes == 48
    assert cumsum_tiling(TINY, 10, 2, 2, True, "forward").data.vector_bytes == 80


def test_many_blocks_on_a_large_tensor():
    res = pad_tiling(B2, (512, 1024), (514, 1030), "edge", 4)
    assert res.block_dim > 1
    _covers(res, B2)
