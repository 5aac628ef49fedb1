"""The cube tile program (``opsnn.matmul.common.cube_program.cube_program``: the A / B
panel ranges of an MTE2 step made once per row / column of output tiles and shared, the
tiles built once and dealt to blocks by slicing) is exactly the program of the
straightforward builder it replaced, kept here as the reference: every output tile
built on its own block's turn, every GmRange fresh.

The grid covers matmul and convolution (``a_gm_reuse`` > 1) tilings on the tiny and
910B2 presets, a bias, a residual, an epilogue, merged L1 steps and queue depth 1.
"""
from __future__ import annotations

import importlib
import itertools

from npu_sim import PRESETS
from npu_sim.program import BlockProgram, Buffer, CoreType, GmRange, KernelSpec, Pipe, Stage, TileSpec

from opsnn.base.tiling_base import align_up, ceil_div

cp = importlib.import_module("opsnn.matmul.common.cube_program")
ct = importlib.import_module("opsnn.matmul.common.cube_tiling")


def reference_blocks(td, in_itemsize, out_itemsize, cube_dtype, a_gm_reuse=1.0, bias_itemsize=0,
                     residual_itemsize=0):
    """Every block's tiles, each output tile's stages made afresh (the old builder)."""
    frac, k_frac, item = ct.FRAC, ct.k_fractal(cube_dtype), in_itemsize
    mt, nt, kc, g = td.m_tiles, td.n_tiles, td.k_chunks, td.chunks_per_step
    m_tail, n_tail = td.m - (mt - 1) * td.base_m, td.n - (nt - 1) * td.base_n
    k_tail = td.k - (kc - 1) * td.k_l1
    steps = ceil_div(kc, g)
    last_chunks = kc - (steps - 1) * g
    last_k = (last_chunks - 1) * td.k_l1 + k_tail

    def stages(b, mi, ni, mb, nb, kb, chunks, kmacs, last):
        a_bytes, b_bytes = int(mb * kb * item / a_gm_reuse), kb * nb * item
        tag = "last" if last else "k"
        res = mb * nb * residual_itemsize if last else 0
        ranges = (GmRange(a_bytes, min(td.k_l1, kb) * item, ("A", b, mi, tag)),
                  GmRange(b_bytes, nb * item, ("B", b, ni, tag)))
        if res:
            ranges += (GmRange(res, nb * residual_itemsize),)
        fix = mb * nb * out_itemsize if last else 0
        return (Stage(Pipe.MTE2, nbytes=a_bytes + b_bytes + (td.base_n * bias_itemsize if last else 0) + res,
                      tiles=chunks, gm_ranges=ranges),
                Stage(Pipe.MTE1, nbytes=(mb * kb + kb * nb) * item, tiles=chunks),
                Stage(Pipe.CUBE, macs=align_up(mb, frac) * align_up(nb, frac) * kmacs, dtype=cube_dtype,
                      tiles=chunks),
                Stage(Pipe.FIXPIPE, nbytes=fix, tiles=1, gm_ranges=(GmRange(fix, nb * out_itemsize),) if fix else ()))

    blocks = []
    for blk in range(td.block_dim):
        tiles = []
        for t in range(blk, td.out_tiles, td.block_dim):
            b, r = divmod(t, mt * nt)
            mi, ni = divmod(r, nt)
            mb = m_tail if mi == mt - 1 else td.base_m
            nb = n_tail if ni == nt - 1 else td.base_n
            if steps > 1:
                tiles.append(TileSpec(stages(b, mi, ni, mb, nb, g * td.k_l1, g, g * align_up(td.k_l1, k_frac),
                                             False), steps - 1))
            kmacs = (last_chunks - 1) * align_up(td.k_l1, k_frac) + align_up(k_tail, k_frac)
            tiles.append(TileSpec(stages(b, mi, ni, mb, nb, last_k, last_chunks, kmacs, True), 1))
        blocks.append(BlockProgram(tuple(tiles)))
    return tuple(blocks)


GEMMS = [  # (batch, M, N, K, a_gm_reuse)
    (1, 1, 768, 768, 1.0), (1, 129, 200, 300, 1.0), (3, 70, 33, 1000, 1.0), (1, 3136, 128, 288, 9.0),
    (1, 784, 32, 1152, 9.0), (2, 49, 2048, 4608, 1.0), (1, 17, 5, 3, 1.0),
]


def test_cube_program_matches_reference():
    n = 0
    for chip_name, (batch, m, nn, k, reuse), (ii, oi, cd), buffer_num, max_steps in itertools.product(
            ["tiny", "ascend910b2"], GEMMS, [(2, 2, "float16"), (4, 4, "float32"), (1, 4, "int8")], (2, 1),
            (ct.MAX_CUBE_STEPS_PER_BLOCK, 3)):
        chip = PRESETS[chip_name]
        td = ct.cube_tiling(chip, batch, m, nn, k, ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num,
                            max_steps_per_block=max_steps)
        for bias, res, epi in ((0, 0, ()), (4, 0, ("relu",)), (4, oi, ("add", "relu"))):
            spec = cp.cube_program(td, "Gemm", ii, oi, cd, a_gm_reuse=reuse, buffer_num=buffer_num, tiling_key=3,
                                   args={"x": 1}, bias_itemsize=bias, epilogue=epi, residual_itemsize=res)
            want = reference_blocks(td, ii, oi, cd, reuse, bias, res)
            assert spec.blocks == want, (chip_name, batch, m, nn, k, cd, buffer_num, max_steps, bias, res)
            assert isinstance(spec, KernelSpec) and spec.core_type is CoreType.AIC and spec.tiling_key == 3
            assert spec.buffers[Buffer.L1] == td.l1_bytes_used and (Buffer.BT in spec.buffers) == bool(bias)
            n += 1
    assert n > 300
