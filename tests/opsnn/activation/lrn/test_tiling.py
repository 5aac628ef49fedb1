"""LRN tiling without a device: feed a chip config and a shape, expect the strategy,
key, tiling data, block_dim and workspace (as ops-nn's op_host tiling tests do)."""
import pytest

from npu_sim import PRESETS
from opsnn.activation.lrn.op_def import LRN
from opsnn.activation.lrn.tiling import REGISTRY, lrn_tiling
from opsnn.activation.lrn.tiling_data import LrnTilingKey
from opsnn.base.status import AclnnError

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def test_strategies_are_registered_in_priority_order():
    assert REGISTRY.names == ("channel_column", "channel_chunk")


def test_columns_fit_on_every_preset():
    for chip in (TINY, B2):
        res = lrn_tiling(chip, n=2, c=24, spatial=15 * 13, size=5, itemsize=4)
        td, v = res.data, res.data.vector
        assert (res.strategy, res.tiling_key, res.workspace_bytes) == ("channel_column", LrnTilingKey.CHANNEL_COLUMN,
                                                                       0)
        assert (td.unit_channels, td.chunks_per_column) == (24, 1) and res.candidates == ("channel_column",)
        assert v.total_units == 2 * 15 * 13 and res.block_dim == v.block_dim <= chip.vector_core_count
        assert v.per_block * (v.block_dim - 1) < v.total_units <= v.per_block * v.block_dim
        assert v.ub_bytes_used <= chip.ub_bytes
        # a column is read once: no halo
        assert td.totals()[0] == td.totals()[1] == 2 * 15 * 13 * 24 * 4


def test_column_ub_budget_and_switch_point():
    # fp32 column of c channels: in + out double-buffered (16c) + fp32 square and sum (8c)
    c_fit = TINY.ub_bytes // 24
    assert lrn_tiling(TINY, 1, c_fit, 4, 3, 4).strategy == "channel_column"
    res = lrn_tiling(TINY, 1, c_fit + 1, 4, 3, 4)
    assert res.strategy == "channel_chunk" and res.candidates == ("channel_column", "channel_chunk")
    # fp16 adds an fp32 cast row per channel: 2 * (2c + 2c) + 12c = 20c
    assert lrn_tiling(TINY, 1, TINY.ub_bytes // 20, 4, 3, 2).strategy == "channel_column"


def test_chunks_carry_the_window_halo():
    res = lrn_tiling(TINY, n=2, c=1200, spatial=6, size=5, itemsize=4)
    td, v = res.data, res.data.vector
    cc, k = td.unit_channels, td.chunks_per_column
    assert res.tiling_key == LrnTilingKey.CHANNEL_CHUNK and cc < 1200 and (k - 1) * cc < 1200 <= k * cc
    assert v.total_units == 2 * 6 * k
    # UB of the largest unit: (cc + 4 halo) in + cc out double-buffered + 8 B scratch a channel
    assert 2 * ((cc + 4) * 4 + cc * 4) + 8 * cc <= TINY.ub_bytes
    tin, tout, _ = td.totals()
    assert tin - tout == 2 * 6 * (k - 1) * 4 * 4  # every chunk but one reads 4 halo channels


def test_a_window_too_large_for_ub_is_a_tiling_error():
    with pytest.raises(AclnnError) as e:
        lrn_tiling(TINY, 1, 5000, 1, 5000, 4)
    assert e.value.code == 561002 and "Lrn: a window of size 5000 needs" in str(e.value)


def test_op_def_defaults_are_onnx():
    assert [p.name for p in LRN.params] == ["self", "size", "alpha", "beta", "bias", "out"]
    assert {p.name: p.default for p in LRN.attrs if p.has_default} == {"alpha": 1e-4, "beta": 0.75, "bias": 1.0}
    assert LRN.infer(self=((1, 3, 2, 2), "dt"), size=3) == [((1, 3, 2, 2), "dt")]
