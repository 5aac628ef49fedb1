"""Matmul-family tiling without a device: feed a chip config, expect the strategy, key,
tiling data, block_dim and workspace, checked against the chip's buffer sizes by
independent arithmetic (as ops-nn's op_host tiling tests do)."""
import math

import pytest

from npu_sim import PRESETS
from npu_sim.program import Buffer
from opsnn.base.status import AclnnError
from opsnn.matmul.common.cube_tiling import MAX_CUBE_STEPS_PER_BLOCK
from opsnn.matmul.matmul.kernel import tile_program
from opsnn.matmul.common.cube_math import compute_dtype_name, cube_compute_dtype
from opsnn.matmul.matmul.tiling import matmul_tiling
from opsnn.matmul.matmul.tiling_data import MatmulTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
SHAPES = [(1, 5, 3, 7), (1, 100, 130, 70), (4, 129, 65, 300), (1, 512, 768, 1024), (3, 64, 64, 2048),
          (1, 1, 1, 1), (2, 1000, 17, 33)]


def _fits(chip, td, item):
    """The base tile in L0A/L0B (double-buffered), the fp32 accumulator in L0C and the
    A/B K chunks in L1 (double-buffered): sizes from the chip preset."""
    assert 2 * td.base_m * td.base_k * item <= chip.l0a_bytes
    assert 2 * td.base_k * td.base_n * item <= chip.l0b_bytes
    assert td.l0c_buffers in (1, 2) and td.l0c_buffers * td.base_m * td.base_n * 4 <= chip.l0c_bytes
    assert 2 * (td.base_m + td.base_n) * td.k_l1 * item <= chip.l1_bytes


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "910b2"])
@pytest.mark.parametrize("item,dtype", [(4, "float32"), (2, "float16")])
@pytest.mark.parametrize("batch,m,n,k", SHAPES)
def test_base_tile_fits_and_covers_the_problem(chip, item, dtype, batch, m, n, k):
    res = matmul_tiling(chip, "Matmul", batch, m, n, k, item, item, dtype)
    td = res.data
    assert res.strategy == "cube" and res.tiling_key == MatmulTilingKey.BASE == 0 and res.workspace_bytes == 0
    _fits(chip, td, item)
    # fractal alignment: 16 x 16 x 16 cube fractals
    assert td.base_m % 16 == td.base_n % 16 == td.base_k % 16 == td.k_l1 % 16 == 0
    # the tiles cover M, N and K, and no tile is empty
    mt, nt, kc = math.ceil(m / td.base_m), math.ceil(n / td.base_n), math.ceil(k / td.k_l1)
    assert (td.m_tiles, td.n_tiles) == (mt, nt) and td.k_chunks >= kc
    assert (td.m_tiles - 1) * td.base_m < m and (td.n_tiles - 1) * td.base_n < n
    assert td.out_tiles == batch * mt * nt
    assert res.block_dim == td.block_dim == min(chip.aic_count, td.out_tiles)
    assert (td.batch, td.m, td.n, td.k) == (batch, m, n, k)


def test_block_dim_switches_with_the_output_tile_count():
    """One 16 x 16 output tile runs on one core; a GEMM of many tiles fills every AIC."""
    assert matmul_tiling(B2, "Mm", 1, 16, 16, 16, 2, 2, "float16").block_dim == 1
    big = matmul_tiling(B2, "Mm", 1, 4096, 4096, 4096, 2, 2, "float16")
    assert big.data.out_tiles >= B2.aic_count and big.block_dim == B2.aic_count == 24
    assert matmul_tiling(TINY, "Mm", 1, 4096, 4096, 64, 2, 2, "float16").block_dim == TINY.aic_count == 2


def test_long_k_is_merged_into_at_most_max_steps():
    """K = 2^20 on one output tile: the K chunks are merged so one block has at most
    MAX_CUBE_STEPS_PER_BLOCK timed steps; buffers stay sized for one chunk."""
    td = matmul_tiling(TINY, "Mm", 1, 32, 32, 1 << 20, 2, 2, "float16").data
    assert td.out_tiles == 1 and td.chunks_per_step > 1
    assert math.ceil(td.k_chunks / td.chunks_per_step) <= MAX_CUBE_STEPS_PER_BLOCK
    _fits(TINY, td, 2)


def test_tile_program_matches_the_tiling():
    """The kernel half: one program per block, each output tile's K steps, buffers as
    the tiling sized them, FLOPs of the whole GEMM."""
    res = matmul_tiling(TINY, "BatchMatMul", 4, 129, 65, 300, 4, 4, "float32")
    td = res.data
    spec = tile_program(td, "BatchMatMul", 4, 4, "float32", {"dtype": "float32"}, res.tiling_key)
    steps = math.ceil(td.k_chunks / td.chunks_per_step)
    assert len(spec.blocks) == td.block_dim and spec.tiling_key == 0
    assert sum(b.tile_count for b in spec.blocks) == td.out_tiles * steps
    assert spec.buffers[Buffer.L0A] <= TINY.l0a_bytes and spec.buffers[Buffer.L0C] <= TINY.l0c_bytes
    assert spec.buffers[Buffer.L1] == td.l1_bytes_used <= TINY.l1_bytes
    assert Buffer.BT not in spec.buffers
    assert spec.args["flops"] == 2 * 4 * 129 * 65 * 300 and spec.args["tiling"]["base_m"] == td.base_m


def test_no_tile_fits_a_tiny_l0():
    """A 16 x 16 fp32 tile double-buffered needs 2 KiB of L0A: with 1 KiB, 561002."""
    chip = TINY.model_copy(update={"l0a_bytes": 1024})
    with pytest.raises(AclnnError) as e:
        matmul_tiling(chip, "Matmul", 1, 64, 64, 64, 4, 4, "float32")
    assert e.value.code == 561002 and "] Matmul: no cube tile fits" in str(e.value)


@pytest.mark.parametrize("dtype,cmt,compute,rate", [
    ("float32", 0, "float32", "float32"), ("float32", 1, "hfloat32", "hf32"), ("float32", 2, "float16", "float16"),
    ("float32", 3, "hfloat32", "hf32"), ("float16", 1, "float16", "float16"), ("bfloat16", 0, "bfloat16", "bfloat16"),
    ("bfloat16", 1, "bfloat16", "bfloat16")])
def test_cube_math_type_picks_the_compute_dtype(dtype, cmt, compute, rate):
    """CANN aclnnMatmul doc (Atlas A2): fp32 goes HF32 under 1/3 and fp16 under 2;
    16-bit inputs are computed as stored."""
    assert compute_dtype_name(cube_compute_dtype(dtype, cmt)) == compute and cube_compute_dtype(dtype, cmt) == rate
