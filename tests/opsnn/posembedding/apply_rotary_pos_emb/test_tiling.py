"""ApplyRotaryPosEmb tiling without a device: units, UB budget, byte counts, keys."""
import pytest

from npu_sim import PRESETS
from opsnn.posembedding.apply_rotary_pos_emb.tiling import apply_rotary_pos_emb_tiling
from opsnn.posembedding.apply_rotary_pos_emb.tiling_data import ApplyRotaryPosEmbTilingKey


@pytest.mark.parametrize("chip", ["tiny", "ascend910b2"])
def test_every_row_of_query_and_key_is_covered_within_ub(chip):
    cfg = PRESETS[chip]
    b, s, nq, nk, d = 2, 37, 8, 2, 64
    res = apply_rotary_pos_emb_tiling(cfg, d, b * s * nq, b * s * nk, b * s, 2, 2)
    td, vt = res.data, res.data.vector
    assert vt.total_units == b * s * (nq + nk)
    assert vt.per_block * (vt.block_dim - 1) < vt.total_units <= vt.per_block * vt.block_dim
    assert vt.ub_bytes_used <= cfg.ub_bytes
    assert res.block_dim == vt.block_dim <= cfg.vector_core_count and res.workspace_bytes == 0
    # one cos and one sin row per token, shared by its nq + nk heads
    assert td.in_bytes_per_unit == pytest.approx(d * 2 + 2 * d * 2 / (nq + nk))
    assert td.out_bytes_per_unit == d * 2 and td.casts == 2
    assert res.tiling_key == ApplyRotaryPosEmbTilingKey.HALF


def test_interleaved_key_and_float32_has_no_casts():
    res = apply_rotary_pos_emb_tiling(PRESETS["tiny"], 16, 12, 0, 3, 4, 4, interleaved=True)
    assert res.tiling_key == ApplyRotaryPosEmbTilingKey.INTERLEAVE and res.data.casts == 0
    assert res.data.gm_bytes == 12 * 16 * 4 * 2 + 2 * 3 * 16 * 4
