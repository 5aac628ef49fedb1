"""QuantMatmulV4 tiling without a device: the int8 tile fits the chip's buffers with
1-byte operands and an int32 (4 B) accumulator, K is cut in int8 fractals (32), the
tiles cover the problem, and the Cube stages run at the int8 rate, which the cost
formulas make twice the fp16 rate (16x32x16 vs 16x16x16 MACs a cycle on 910B)."""
import math

import pytest

from npu_sim import PRESETS
from npu_sim.hardware.cost import stage_ns
from npu_sim.program import Pipe, Stage
from opsnn.matmul.quant_matmul.kernel import tile_program
from opsnn.matmul.quant_matmul.tiling import quant_matmul_tiling
from opsnn.matmul.quant_matmul.tiling_data import QuantMatmulTilingKey

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
SHAPES = [(1, 5, 3, 7), (1, 100, 130, 70), (4, 129, 65, 300), (1, 512, 768, 1024), (1, 1, 1, 1), (2, 1000, 17, 33)]


@pytest.mark.parametrize("chip", [TINY, B2], ids=["tiny", "910b2"])
@pytest.mark.parametrize("out_item", [1, 2])
@pytest.mark.parametrize("batch,m,n,k", SHAPES)
def test_int8_tile_fits_and_covers(chip, out_item, batch, m, n, k):
    res = quant_matmul_tiling(chip, batch, m, n, k, out_item, QuantMatmulTilingKey.PER_CHANNEL)
    td = res.data
    assert res.strategy == "cube_int8" and res.tiling_key == 1 and res.workspace_bytes == 0
    assert 2 * td.base_m * td.base_k <= chip.l0a_bytes and 2 * td.base_k * td.base_n <= chip.l0b_bytes
    assert td.l0c_buffers * td.base_m * td.base_n * 4 <= chip.l0c_bytes     # int32 accumulator
    assert 2 * (td.base_m + td.base_n) * td.k_l1 <= chip.l1_bytes
    assert td.base_k % 32 == 0 and td.k_l1 % 32 == 0                         # int8 K fractal
    assert td.base_m % 16 == 0 and td.base_n % 16 == 0
    mt, nt = math.ceil(m / td.base_m), math.ceil(n / td.base_n)
    assert td.out_tiles == batch * mt * nt and td.k_chunks * td.k_l1 >= k
    assert res.block_dim == td.block_dim == min(chip.aic_count, td.out_tiles)


def test_int8_cube_stage_is_twice_the_fp16_rate():
    macs = 4096 * 8192 * 10
    i8 = stage_ns(B2, Stage(Pipe.CUBE, macs=macs, dtype="int8"))
    f16 = stage_ns(B2, Stage(Pipe.CUBE, macs=macs, dtype="float16"))
    assert B2.cube_int8_macs_per_cycle == 16 * 32 * 16 == 2 * B2.cube_fp16_macs_per_cycle
    assert f16 / i8 == pytest.approx(2.0, rel=1e-3)


def test_program_charges_int8_bytes_and_the_out_itemsize():
    res = quant_matmul_tiling(TINY, 1, 64, 64, 128, 1)
    spec = tile_program(res.data, 1, {}, res.tiling_key, has_bias=False)
    mte2 = sum(s.nbytes * t.count for b in spec.blocks for t in b.tiles for s in t.stages if s.pipe is Pipe.MTE2)
    fix = sum(s.nbytes * t.count for b in spec.blocks for t in b.tiles for s in t.stages if s.pipe is Pipe.FIXPIPE)
    assert fix == 64 * 64 * 1                      # int8 out: one byte per element
    n_tiles, m_tiles = res.data.n_tiles, res.data.m_tiles
    assert mte2 == 64 * 128 * n_tiles + 128 * 64 * m_tiles   # A re-read per N tile, B per M tile, 1 B each
    assert spec.args["epilogue"] == ["dequant"] and spec.args["flops"] == 2 * 64 * 64 * 128
