"""run_block's general loop keeps each stage's next start up to date (it recomputes
only the stages a step can change); ``pipeline.SCAN_ALL = True`` is the reference,
every stage's start computed afresh at each step. Both must give the same kernel
records, trace spans (in order) and clock, float for float: on random multi-tile
programs (Cube-like and Vector-like pipe sequences, several TileSpecs per block,
keyed L2 reads and writes, queue depths 1-3, one-tile blocks with keys) on two
chips, on the event path and the fast path, and MIX kernels (fused programs).
``CompiledProgram.tiles`` is checked against the TileSpecs it expands."""
from __future__ import annotations

import json
import random

import pytest

from npu_sim import BlockProgram, CoreType, Device, GmRange, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.device import FAST_PATH_ENV
from npu_sim.hardware import pipeline
from npu_sim.hardware.cost import stage_terms

_CUBE = (Pipe.MTE2, Pipe.MTE1, Pipe.CUBE, Pipe.FIXPIPE)
_VEC = (Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3)
_MIX = (Pipe.MTE2, Pipe.MTE1, Pipe.CUBE, Pipe.FIXPIPE, Pipe.VECTOR, Pipe.MTE3)


def _stage(rng, p, k):
    nb = rng.choice((0, 512, 4096, 3 * 4096, 64 * 1024))
    if p in (Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE):
        if nb and rng.random() < 0.6:   # an L2-keyed operand (tile j reads/writes (key, j))
            key = ("A" if p is Pipe.MTE2 else "C", k % 3)
            return Stage(p, nbytes=nb, gm_ranges=(GmRange(nb, key=key),))
        return Stage(p, nbytes=nb)
    if p is Pipe.CUBE:
        return Stage(p, macs=rng.choice((0, 16 * 16 * 16, 128 * 128 * 64)))
    if p is Pipe.VECTOR:
        return Stage(p, vector_bytes=nb)
    return Stage(p, nbytes=nb, tiles=rng.choice((1, 2)))


def _prog(rng, pipes):
    groups = tuple(TileSpec(tuple(_stage(rng, p, k) for p in pipes), rng.choice((0, 1, 2, 5)))
                   for k in range(rng.choice((1, 2, 3))))
    if not any(g.count for g in groups):
        groups += (TileSpec(tuple(_stage(rng, p, 9) for p in pipes), 1),)
    return BlockProgram(groups)


def random_device(chip, seed):
    """A device that ran 10 random AIC/AIV/MIX kernels on two streams (seeded)."""
    rng = random.Random(seed)
    dev = Device(chip, backed=False)
    streams = [dev.create_stream(), dev.create_stream()]
    for k in range(10):
        kind = rng.choice(("AIC", "AIV", "MIX"))
        if kind == "MIX":
            ctype, pipes, dim = CoreType.MIX, _MIX, chip.aic_count
        elif kind == "AIC":
            ctype, pipes, dim = CoreType.AIC, _CUBE, chip.aic_count + 1
        else:
            ctype, pipes, dim = CoreType.AIV, _VEC, chip.vector_core_count
        progs = [_prog(rng, pipes) for _ in range(3)]
        blocks = tuple(progs[b % 3] for b in range(rng.randint(1, dim)))
        spec = KernelSpec(f"k{k}", ctype, blocks, rng.choice((1, 2, 3)), {})
        dev.submit_kernel(rng.choice(streams), KernelLaunch(spec, None), 50.0 * k)
    dev.run_until(None)
    return dev


def _run(chip, seed):
    dev = random_device(chip, seed)
    return json.dumps(list(dev.kernel_records)), list(dev.recorder.spans), dev.env.now


@pytest.mark.parametrize("fast", ["0", "1"])
@pytest.mark.parametrize("chip", ["ascend910b2", "tiny"])
def test_kept_starts_equal_full_scan(monkeypatch, chip, fast):
    monkeypatch.setenv(FAST_PATH_ENV, fast)
    for seed in range(6):
        monkeypatch.setattr(pipeline, "SCAN_ALL", True)
        ref = _run(PRESETS[chip], seed)
        monkeypatch.setattr(pipeline, "SCAN_ALL", False)
        new = _run(PRESETS[chip], seed)
        assert ref == new, seed
        assert ref[1], seed   # pipe spans were recorded


def test_tile_table_expands_tile_specs():
    chip = PRESETS["tiny"]
    rng = random.Random(7)
    for pipes in (_CUBE, _VEC, _MIX):
        for _ in range(20):
            prog = _prog(rng, pipes)
            cp = pipeline.compile_program(chip, prog)
            for s in range(len(pipes)):
                ref = []
                for g in prog.tiles:
                    eng, fixed, scalar, bus, keyed, nbytes, gm, write = stage_terms(chip, g.stages[s], 1)
                    for j in range(max(g.count, 0)):
                        gm_terms = (eng, bus, keyed, write, j if keyed else 0) if gm else None
                        ref.append((gm, eng + fixed, fixed, scalar, nbytes, gm_terms))
                assert cp.tiles[s] == ref
