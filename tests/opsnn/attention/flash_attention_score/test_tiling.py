"""FlashAttentionScore tiling without a device: feed a chip config and the problem,
expect the strategy, key, tile edges that fit every buffer (checked by independent
arithmetic), the task split, block_dim and workspace; and the tile program built from
the tiling data."""
import math

import pytest

from npu_sim import PRESETS, Architecture, get_chip
from npu_sim.program import Buffer, CoreType
from opsnn.attention.flash_attention_score.kernel import tile_program
from opsnn.matmul.common.cube_math import cube_compute_dtype
from opsnn.attention.flash_attention_score.tiling import flash_attention_tiling
from opsnn.attention.flash_attention_score.tiling_data import START_S_KV, START_S_Q, FlashAttentionScoreTilingKey
from opsnn.base.status import AclnnError

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def _tiling(chip, key=FlashAttentionScoreTilingKey.MASKED, causal_offset=None, *, b=2, n=8, n_kv=None, s_q=300,
            s_kv=520, d=64, d_v=None, itemsize=4, has_pse=False):
    return flash_attention_tiling(chip, batch=b, head_num=n, kv_head_num=n_kv or n, s_q=s_q, s_kv=s_kv, d=d,
                                  d_v=d_v or d, itemsize=itemsize, has_pse=has_pse, key=key,
                                  causal_offset=causal_offset)


@pytest.mark.parametrize("chip_name", ["tiny", "ascend910b2", "ascend910b4", "ascend310p3"])
@pytest.mark.parametrize("itemsize,cube_dtype", [(4, "float32"), (2, "float16")])
def test_tiling_invariants(chip_name, itemsize, cube_dtype):
    """Tiles fit every buffer; the split, workspace and FLOPs follow the README's
    formulas; MIX on separated chips only."""
    chip = get_chip(chip_name)
    b, n, s_q, s_kv, d = 2, 8, 300, 520, 64
    res = flash_attention_tiling(chip, batch=b, head_num=n, kv_head_num=n, s_q=s_q, s_kv=s_kv, d=d, d_v=d,
                                 itemsize=itemsize, has_pse=False, key=FlashAttentionScoreTilingKey.MASKED,
                                 causal_offset=None)
    td = res.data
    spec = tile_program(td, chip, cube_dtype, causal_offset=None)
    sep = chip.architecture == Architecture.SEPARATED
    assert spec.core_type == (CoreType.MIX if sep else CoreType.AIC)
    assert (Buffer.UB in spec.buffers) == sep
    assert td.l1_bytes <= chip.l1_bytes and td.l0a_bytes <= chip.l0a_bytes and td.l0b_bytes <= chip.l0b_bytes
    assert td.l0c_bytes <= chip.l0c_bytes and td.ub_bytes <= chip.ub_bytes
    assert td.base_s_q % 16 == 0 and td.base_s_kv % 16 == 0
    assert td.base_s_q <= START_S_Q and td.base_s_kv <= START_S_KV
    assert td.q_blocks == -(-s_q // td.base_s_q) and td.kv_blocks == -(-s_kv // td.base_s_kv)
    assert td.tasks == b * n * td.q_blocks and td.block_dim == min(chip.aic_count, td.tasks) == spec.block_dim
    assert td.tiles == td.tasks * td.kv_blocks
    per_block = 2 * (td.base_s_q * td.base_s_kv * (4 + itemsize) + td.base_s_q * d * 4)
    assert td.workspace_per_block == -(-per_block // 512) * 512
    assert td.workspace_bytes == td.block_dim * td.workspace_per_block
    assert spec.args["flops"] == 2 * b * n * s_q * s_kv * (d + d)


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "910b2"])
def test_result_fields(chip):
    res = _tiling(chip)
    assert res.strategy == "flash" and res.tiling_key == FlashAttentionScoreTilingKey.MASKED == 1
    assert res.block_dim == res.data.block_dim and res.workspace_bytes == res.data.workspace_bytes > 0
    assert _tiling(chip, FlashAttentionScoreTilingKey.DENSE).tiling_key == 0


def test_910b_halves_skv_for_l0c_and_tiny_shrinks_further():
    """On 910B2 (128 KiB L0C) the starting 128 x 256 tile's double-buffered fp32 S
    needs 2 * 128 * 256 * 4 B = 256 KiB of L0C, so Skv halves (it is >= Sq) to 128:
    128 KiB, which fits, as do L1 ((128*64 + 4*128*128) * 2 B = 144 KiB of 512 KiB) and
    L0A/L0B (2 * 128 * 128 * 2 B = 64 KiB each). The tiny chip's 32 KiB L0C needs more
    halving."""
    big = _tiling(B2, itemsize=2, s_q=1024, s_kv=1024).data
    assert 2 * START_S_Q * START_S_KV * 4 > B2.l0c_bytes >= 2 * 128 * 128 * 4
    assert (big.base_s_q, big.base_s_kv) == (128, 128)
    small = _tiling(TINY, itemsize=2, s_q=1024, s_kv=1024).data
    assert 2 * small.base_s_q * small.base_s_kv * 4 <= TINY.l0c_bytes
    assert small.base_s_q * small.base_s_kv < 128 * 128


@pytest.mark.parametrize("offset", [0, 220])
def test_causal_skips_fully_masked_kv_blocks(offset):
    """Causal (diagonal offset 0 = leftUpCausal, Skv - Sq = rightDownCausal): query
    block i visits the KV blocks up to the column of its last row plus the offset."""
    s_q, s_kv = 300, 520
    dense = _tiling(B2, FlashAttentionScoreTilingKey.MASKED, s_q=s_q, s_kv=s_kv).data
    td = _tiling(B2, FlashAttentionScoreTilingKey.CAUSAL, offset, s_q=s_q, s_kv=s_kv).data
    per_head = sum(min(td.kv_blocks, math.ceil((min((i + 1) * td.base_s_q, s_q) + offset) / td.base_s_kv))
                   for i in range(td.q_blocks))
    assert td.tiles == 2 * 8 * per_head < dense.tiles
    spec = tile_program(td, B2, "float32", causal_offset=offset)
    assert spec.tiling_key == 2 and spec.args["flops"] < 2 * 2 * 8 * s_q * s_kv * 128


def test_head_dim_too_large_is_a_tiling_error():
    """D = 4096 fp32: even a 16-row Q tile (16 * 4096 * 4 B = 256 KiB) exceeds tiny's
    64 KiB L1."""
    with pytest.raises(AclnnError) as e:
        _tiling(TINY, d=4096)
    assert e.value.code == 561002 and "does not fit tiny's buffers" in str(e.value)


def test_cube_dtype_is_the_input_dtype():
    assert [cube_compute_dtype(t, 0) for t in ("float32", "float16", "bfloat16")] == ["float32", "float16", "bfloat16"]
