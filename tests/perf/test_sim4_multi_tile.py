"""The fast path's generator-free loop of multi-tile blocks (npu_sim/hardware/multi_tile.py
``multi_tile_blocks``) gives what run_block's generators driven by ``run_blocks_inline``
give (``multi_tile.MULTI_TILE_LOOP = False``, the reference), float for float: kernel
records, pipe spans (in order), the clock, the HBM and L2 servers' state, the L2 cache
(ranges in LRU order, dirty set, counters), the cores' free lists and the fast-path
count. On random kernels (hypothesis): Cube-like and Vector-like blocks of several
TileSpecs (some of count 0, some blocks empty), GM and on-chip steps mixed in a stage,
keyed reads and write-back writes, queue depths 1-3, blocks of one pipe sequence (their
sums kept running) or of two (a pipe twice: booked block by block), an L2 small enough to evict dirty
ranges or one range, an L2-resident share (``KernelLaunch.gm``), with and without block
dispatch time, pipe spans recorded or not; MIX kernels and a second stream make some
kernels take the generators or the event path. And on a light ONNX model (ShuffleNet: convolutions of
11-23 tiles per block) in graph mode."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings, strategies as st

from npu_sim import BlockProgram, CoreType, Device, GmRange, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import multi_tile
from tests.perf.test_blocks_one_tile import _model

_CUBE = (Pipe.MTE2, Pipe.MTE1, Pipe.CUBE, Pipe.FIXPIPE)
_VEC = (Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3)
_MIX = (Pipe.MTE2, Pipe.MTE1, Pipe.CUBE, Pipe.FIXPIPE, Pipe.VECTOR, Pipe.MTE3)
_VEC2 = (Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3, Pipe.VECTOR, Pipe.MTE3)


def _stage(rng, p, k):
    nb = rng.choice((0, 512, 4096, 3 * 4096, 64 * 1024))
    if p in (Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE):
        if nb and rng.random() < 0.6:   # an L2-keyed operand, sometimes two
            keys = [GmRange(nb, key=("A" if p is Pipe.MTE2 else "C", k % 3))]
            if rng.random() < 0.3:
                keys.append(GmRange(nb // 2, key=("B", k % 2)))
            return Stage(p, nbytes=sum(g.nbytes for g in keys), gm_ranges=tuple(keys))
        return Stage(p, nbytes=nb)
    if p is Pipe.CUBE:
        return Stage(p, macs=rng.choice((0, 16 * 16 * 16, 128 * 128 * 64)))
    if p is Pipe.VECTOR:
        return Stage(p, vector_bytes=nb)
    return Stage(p, nbytes=nb, tiles=rng.choice((1, 2)))


def _prog(rng, pipes):
    groups = tuple(TileSpec(tuple(_stage(rng, p, k) for p in pipes), rng.choice((0, 1, 2, 5, 9)))
                   for k in range(rng.choice((1, 2, 3))))
    return BlockProgram(groups)


def _run(seed: int, chip_name: str, l2_bytes: int, dispatch: bool, recording: bool):
    """Random kernels on two streams (seeded); everything the device state shows after them."""
    rng = random.Random(seed)
    chip = PRESETS[chip_name].model_copy(update={"l2_bytes": l2_bytes})
    if not dispatch:
        chip = chip.model_copy(update={"block_dispatch_ns": 0.0})
    dev = Device(chip, backed=False)
    if not recording:
        dev.recorder.pipes = False
    streams = [dev.create_stream(), dev.create_stream()]
    for k in range(8):
        kind = rng.choice(("AIC", "AIC", "AIV", "AIV", "AIV2", "MIX"))
        if kind == "MIX":
            ctype, pipes, dim = CoreType.MIX, _MIX, chip.aic_count
        elif kind == "AIC":
            ctype, pipes, dim = CoreType.AIC, _CUBE, chip.aic_count
        else:
            ctype, pipes, dim = CoreType.AIV, _VEC, chip.vector_core_count
        progs = [_prog(rng, pipes) for _ in range(3)]
        if kind == "AIV2":   # blocks whose pipes differ, one pipe twice: booked block by block
            progs[1] = _prog(rng, _VEC2)
        blocks = tuple(progs[b % 3] for b in range(rng.randint(1, dim)))
        spec = KernelSpec(f"k{k}", ctype, blocks, rng.choice((1, 2, 3)), {})
        addr, size = 1 << 20, rng.choice((64 * 1024, l2_bytes // 4))   # reads what an earlier kernel wrote
        gm = ([(addr, size)], [(addr + (k % 2) * size, size)], None)
        stream = streams[1] if rng.random() < 0.2 else streams[0]
        dev.submit_kernel(stream, KernelLaunch(spec, None, gm), 40.0 * k)
        if rng.random() < 0.3:
            dev.run_until(None)
    dev.run_until(None)
    c = dev.l2_cache
    cache = (list(c.lines.items()), sorted(map(repr, c.dirty)), c.used_bytes, c.hits, c.misses, c.hit_bytes,
             c.miss_bytes, c.evictions, c.writeback_bytes, c.pending_writeback)
    servers = [(s.free_at_ns, s.busy_ns, s.bytes_moved) for s in (dev.hbm, dev.l2)]
    free = {u: [c.name for c in cores] for u, cores in dev.scheduler.free.items()}
    return (json.dumps(list(dev.kernel_records)), list(dev.recorder.spans), dev.env.now, dev.fast_kernels,
            servers, cache, free, dict(dev.pipe_busy_ns))


def _both(monkeypatch, *args):
    monkeypatch.setattr(multi_tile, "MULTI_TILE_LOOP", False)
    ref = _run(*args)
    monkeypatch.setattr(multi_tile, "MULTI_TILE_LOOP", True)
    calls = []
    real = multi_tile.multi_tile_blocks
    monkeypatch.setattr(multi_tile, "multi_tile_blocks", lambda *a: (calls.append(1), real(*a))[1])
    return ref, _run(*args), len(calls)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10 ** 6), chip=st.sampled_from(["ascend910b2", "tiny"]),
       l2=st.sampled_from([40 * 1024, 150 * 1024, 1 << 30]), dispatch=st.booleans(), recording=st.booleans())
def test_multi_tile_loop_equals_generators(seed, chip, l2, dispatch, recording):
    with pytest.MonkeyPatch.context() as mp:   # (a function-scoped fixture would span the examples)
        ref, new, _ = _both(mp, seed, chip, l2, dispatch, recording)
    assert ref == new
    assert ref[4][0][1] > 0   # HBM booked


def test_random_kernels_take_the_loop_and_evict(monkeypatch):
    """The random kernels do exercise the loop: some take it, some evict dirty ranges."""
    calls = evicted = writeback = 0
    for seed in range(6):
        ref, new, n = _both(monkeypatch, seed, "tiny", 40 * 1024, True, True)
        assert ref == new, seed
        calls += n
        evicted += ref[5][7]
        writeback += ref[5][8]
    assert calls > 5 and evicted > 0 and writeback > 0


def test_multi_tile_loop_equals_generators_model(monkeypatch):
    monkeypatch.setattr(multi_tile, "MULTI_TILE_LOOP", False)
    _model("light_shufflenet")   # warm-up: phase 1's caches
    ref = _model("light_shufflenet")
    monkeypatch.setattr(multi_tile, "MULTI_TILE_LOOP", True)
    new = _model("light_shufflenet")
    assert ref == new and new[3] > 0
