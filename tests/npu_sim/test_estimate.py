"""estimate_block_ns / estimate_kernel_ns / estimate_tiles_ns against the simulator.

Exact (to float rounding) where the model says so: a single tile; any block whose
transfers never queue at the HBM behind its own (the 910B2 preset, where the HBM
outruns one core's copy engines). A bound where they do (the tiny chip, HBM 50 B/ns
below one MTE2's 128 B/ns): the simulator is never faster than the estimate and at
most as slow as serialising every GM stage of every tile at the HBM.
"""
from __future__ import annotations

import random

import pytest

from npu_sim import (PRESETS, BlockProgram, CoreType, Device, GmRange, KernelLaunch, KernelSpec, Pipe, Stage,
                     TileSpec)
from npu_sim.hardware.cost import (_pipeline_ns, estimate_block_ns, estimate_kernel_ns, estimate_tiles_ns,
                                   idle_stage_ns, kernel_overhead_ns, stage_cost)
from npu_sim.program import MixBlockProgram

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]


def simulate(chip, spec) -> float:
    """Task duration (ns) of ``spec`` alone on a fresh device."""
    dev = Device(chip)
    stream = dev.create_stream()
    dev.submit_kernel(stream, KernelLaunch(spec, None), 0.0)
    dev.run_until(None)
    (rec,) = dev.kernel_records
    return rec["dur_ns"]


def vec_tile(n_in, n_out, vb, count, run=0):
    return TileSpec((Stage(Pipe.MTE2, nbytes=n_in, gm_ranges=(GmRange(n_in, run),) if run else ()),
                     Stage(Pipe.VECTOR, vector_bytes=vb), Stage(Pipe.MTE3, nbytes=n_out)), count)


def cube_tile(mi, ni, ab, macs, fix, count, dtype="float16"):
    return TileSpec((Stage(Pipe.MTE2, nbytes=ab, gm_ranges=(GmRange(ab // 2, 96, ("A", mi)),
                                                            GmRange(ab - ab // 2, 272, ("B", ni)))),
                     Stage(Pipe.MTE1, nbytes=ab), Stage(Pipe.CUBE, macs=macs, dtype=dtype),
                     Stage(Pipe.FIXPIPE, nbytes=fix, gm_ranges=(GmRange(fix, 160),) if fix else ())), count)


VEC_TILES = [(4096, 4096, 8192), (1000, 3000, 100), (65536, 16384, 65536), (30000, 50, 300000)]


def one_block(chip, spec) -> float:
    """The simulated block time: task minus launch and one dispatch."""
    return simulate(chip, spec) - kernel_overhead_ns(chip)


@pytest.mark.parametrize("chip", [TINY, B2], ids=lambda c: c.name)
@pytest.mark.parametrize("shape", VEC_TILES)
def test_single_tile_is_exact(chip, shape):
    for prog in (BlockProgram((vec_tile(*shape, 1, run=100),)),
                 BlockProgram((cube_tile(0, 0, shape[0], 64 * shape[1], shape[1], 1),))):
        for bn in (1, 2, 3):
            spec = KernelSpec("k", CoreType.AIV if prog.pipes[1] is Pipe.VECTOR else CoreType.AIC, (prog,), bn)
            est = estimate_block_ns(chip, prog, bn)
            assert est == pytest.approx(one_block(chip, spec), rel=1e-12)
            assert est == pytest.approx(sum(idle_stage_ns(chip, s) for s in prog.tiles[0].stages), rel=1e-12)
            assert estimate_kernel_ns(chip, spec) == pytest.approx(simulate(chip, spec), rel=1e-12)


def _programs():
    yield BlockProgram((vec_tile(4096, 4096, 8192, 1), vec_tile(4096, 4096, 8192, 40), vec_tile(512, 512, 512, 3)))
    yield BlockProgram((vec_tile(1000, 3000, 100, 7, run=96),))
    yield BlockProgram((vec_tile(65536, 16384, 65536, 12),))
    yield BlockProgram(tuple(t for mi in range(3) for ni in range(2) for t in (
        cube_tile(mi, ni, 32768, 64 * 64 * 128, 0, 3), cube_tile(mi, ni, 32768, 64 * 64 * 128, 8192, 1))))
    yield BlockProgram((cube_tile(0, 0, 8192, 16 * 16 * 512, 0, 9, "float32"), cube_tile(0, 0, 4096, 4096, 2048, 1)))


@pytest.mark.parametrize("bn", [1, 2, 3])
def test_block_exact_when_the_hbm_outruns_the_core(bn):
    for prog in _programs():
        ct = CoreType.AIV if Pipe.VECTOR in prog.pipes else CoreType.AIC
        spec = KernelSpec("k", ct, (prog,), bn)
        assert estimate_block_ns(B2, prog, bn) == pytest.approx(one_block(B2, spec), rel=1e-12)
        assert estimate_kernel_ns(B2, spec) == pytest.approx(simulate(B2, spec), rel=1e-12)


def _serial_hbm_bound(chip, prog, bn) -> float:
    """The estimate with every tile's GM stages also queued one after another at the
    HBM: each stage charged its own HBM time plus that of the tile's other GM stages."""
    groups = []
    for g in prog.tiles:
        hbm = [stage_cost(chip, s).bus_bytes / chip.hbm_bandwidth_bytes_per_ns for s in g.stages]
        groups.append((g.count, [idle_stage_ns(chip, s) + (sum(hbm) if stage_cost(chip, s).gm else 0.0)
                                 for s in g.stages]))
    return _pipeline_ns(groups, bn)


@pytest.mark.parametrize("bn", [1, 2, 3])
def test_block_bounded_when_its_transfers_queue_at_the_hbm(bn):
    worst = 1.0
    for prog in list(_programs())[:3]:   # unkeyed vector programs
        spec = KernelSpec("k", CoreType.AIV, (prog,), bn)
        est, sim = estimate_block_ns(TINY, prog, bn), one_block(TINY, spec)
        assert est <= sim * (1 + 1e-12)
        assert sim <= _serial_hbm_bound(TINY, prog, bn) * (1 + 1e-12)
        worst = max(worst, sim / est)
    assert worst > 1.0   # the tiny chip does queue: the bound is not vacuous


def _naive(groups, bn):
    """The pipeline rule over every tile, written out."""
    d = [dur for count, dur in groups for _ in range(count)]
    n, S = len(d), len(d[0]) if d else 0
    end = [[0.0] * n for _ in range(S)]
    for i in range(n):
        for s in range(S):
            t = max(end[s - 1][i] if s else 0.0, end[s][i - 1] if i else 0.0,
                    end[s + 1][i - bn] if s + 1 < S and i >= bn else 0.0)
            end[s][i] = t + d[i][s]
    return end[-1][-1] if n and S else 0.0


def test_run_compression_matches_the_rule_tile_by_tile():
    rng = random.Random(7)
    for _ in range(400):
        S = rng.randint(1, 5)
        bn = rng.choice([1, 2, 3, 4])
        groups = [(rng.randint(1, 40), [rng.choice([0.0, rng.uniform(0, 100), 50.0]) for _ in range(S)])
                  for _ in range(rng.randint(1, 4))]
        assert _pipeline_ns(groups, bn) == pytest.approx(_naive(groups, bn), rel=1e-9, abs=1e-9)
        if len(groups) == 1 and bn >= 2:
            count, d = groups[0]
            assert _naive(groups, bn) == pytest.approx(sum(d) + (count - 1) * max(d), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("bn", [1, 2, 3])
def test_tiles_estimate_is_the_one_group_block_estimate(bn):
    for n_in, n_out, vb in VEC_TILES:
        for count in (1, 2, 17):
            t = vec_tile(n_in, n_out, vb, count, run=200)
            assert estimate_tiles_ns(TINY, t.stages, count, bn) == pytest.approx(
                estimate_block_ns(TINY, BlockProgram((t,)), bn), rel=1e-12)
    assert estimate_tiles_ns(TINY, (), 3) == 0.0 and estimate_tiles_ns(TINY, vec_tile(1, 1, 1, 1).stages, 0) == 0.0


def test_mix_programs():
    aic = BlockProgram((cube_tile(0, 0, 8192, 64 * 64 * 64, 2048, 4),))
    aiv = BlockProgram((vec_tile(2048, 2048, 4096, 6),))
    mix = MixBlockProgram(aic, (aiv, aiv))
    spec = KernelSpec("m", CoreType.MIX, (mix,), 2)
    assert estimate_block_ns(B2, mix) == pytest.approx(max(estimate_block_ns(B2, aic), estimate_block_ns(B2, aiv)))
    assert estimate_kernel_ns(B2, spec) == pytest.approx(simulate(B2, spec), rel=1e-12)
    fused = BlockProgram((TileSpec((Stage(Pipe.MTE2, nbytes=8192), Stage(Pipe.MTE1, nbytes=8192),
                                    Stage(Pipe.CUBE, macs=1 << 18), Stage(Pipe.FIXPIPE, nbytes=4096),
                                    Stage(Pipe.VECTOR, vector_bytes=1 << 16), Stage(Pipe.MTE3, nbytes=4096)), 5),))
    spec = KernelSpec("f", CoreType.MIX, (fused,), 2)
    assert estimate_block_ns(B2, fused, 2, aiv_split=2) < estimate_block_ns(B2, fused, 2)
    assert estimate_kernel_ns(B2, spec) == pytest.approx(simulate(B2, spec), rel=1e-12)


def _cube_kernel(blocks, per_block):
    progs = []
    for blk in range(blocks):
        tiles = []
        for t in range(per_block):
            mi, ni = (blk + t * blocks) // 4, (blk + t * blocks) % 4
            tiles += [cube_tile(mi, ni, 32768, 64 * 64 * 128, 0, 3), cube_tile(mi, ni, 32768, 64 * 64 * 128, 8192, 1)]
        progs.append(BlockProgram(tuple(tiles)))
    return KernelSpec("m", CoreType.AIC, tuple(progs), 2)


@pytest.mark.parametrize("chip", [TINY, B2], ids=lambda c: c.name)
@pytest.mark.parametrize("blocks", [2, 6, 24, 60])
@pytest.mark.parametrize("per_block", [1, 3])
def test_kernel_estimate_of_multi_block_cube_kernels(chip, blocks, per_block):
    """Waves of blocks sharing A/B panels through L2. Exact on 910B2 while the blocks
    running at once do not saturate the HBM (6 x 230 GB/s of MTE2 < the 1382 GB/s
    sustained rate); else the simulator is slower by what the transfers queue at the
    HBM: measured up to 2.2% on 910B2 and 9.1% on the tiny chip for these kernels."""
    spec = _cube_kernel(blocks, per_block)
    est, sim = estimate_kernel_ns(chip, spec), simulate(chip, spec)
    if chip is B2 and blocks <= 6:
        assert est == pytest.approx(sim, rel=1e-12)
    assert est * (1 - 1e-12) <= sim <= est * (1.03 if chip is B2 else 1.10)


@pytest.mark.parametrize("blocks", [8, 24, 48, 96])
def test_kernel_estimate_hbm_floor_for_many_memory_bound_blocks(blocks):
    """Vector blocks streaming at once: the shared HBM, not one core, sets the time
    (measured within 3.3%)."""
    prog = BlockProgram((vec_tile(65536, 65536, 4096, 8),))
    spec = KernelSpec("v", CoreType.AIV, (prog,) * blocks, 2)
    est, sim = estimate_kernel_ns(B2, spec), simulate(B2, spec)
    assert est > kernel_overhead_ns(B2) + estimate_block_ns(B2, prog)
    assert est * (1 - 1e-12) <= sim <= est * 1.04


def test_kernel_estimate_errors():
    with pytest.raises(ValueError, match="no cores for a MIX kernel"):
        estimate_kernel_ns(PRESETS["ascend310p3"], KernelSpec("m", CoreType.MIX, (BlockProgram(()),)))
