"""The fast path's one-tile loop (hardware/inline.py ``_one_tile_blocks``) on blocks whose
one tile has L2-keyed ranges (``KernelPlan.one_tile``; ``inline.KEYED_ONE_TILE``) gives
what their generators give through run_block's general loop (``KEYED_ONE_TILE = False``,
the reference): kernel records, pipe spans in order, the clock, the HBM/L2 servers' and
the L2 cache's state, float for float. Cube-like and vector-like one-tile programs with
keyed reads shared between blocks (hits) and keyed write-backs, an L2 small enough to
evict dirty ranges, inputs found in the L2 kept across kernels (``KernelLaunch.gm``:
``resident`` and ``resident_keyed``), with and without block dispatch time, on two chips;
some kernels mix one-tile and two-tile blocks (the general loop for all)."""
from __future__ import annotations

import json
import random

import pytest

from npu_sim import BlockProgram, CoreType, Device, GmRange, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import inline


def _gm(rng, p, b, k):
    nb = rng.choice((512, 4096, 3 * 4096, 20 * 1024))
    kind = rng.random()
    if kind < 0.7:
        key = ("A", k % 2) if p is Pipe.MTE2 and rng.random() < 0.5 else ("C" if p is not Pipe.MTE2 else "B", b, k)
        ranges = (GmRange(nb // 2, run_bytes=rng.choice((0, 100)), key=key),)
        if rng.random() < 0.3:
            ranges += (GmRange(nb // 4, key=None),)
        return Stage(p, nbytes=nb, gm_ranges=ranges)
    return Stage(p, nbytes=nb)


def _prog(rng, cube, b, k, tiles=1):
    if cube:
        st = (_gm(rng, Pipe.MTE2, b, k), Stage(Pipe.MTE1, nbytes=4096), Stage(Pipe.CUBE, macs=16 * 16 * 16 * 8),
              _gm(rng, Pipe.FIXPIPE, b, k))
    else:
        st = (_gm(rng, Pipe.MTE2, b, k), Stage(Pipe.VECTOR, vector_bytes=rng.choice((0, 4096))),
              _gm(rng, Pipe.MTE3, b, k))
    return BlockProgram((TileSpec(st, tiles),))


def _run(chip, seed):
    rng = random.Random(seed)
    dev = Device(chip, backed=False)
    s1, s2 = dev.create_stream(), dev.create_stream()
    t = 0.0
    for k in range(14):
        cube = rng.random() < 0.5
        n = rng.randint(1, chip.aic_count if cube else chip.vector_core_count)
        blocks = tuple(_prog(rng, cube, b, k, 2 if k % 5 == 4 and b == 0 else 1) for b in range(n))
        spec = KernelSpec(f"k{k}", CoreType.AIC if cube else CoreType.AIV, blocks, 2, {})
        addr, size = 1 << 20, rng.choice((4096, chip.l2_bytes // 4, 2 * chip.l2_bytes))
        gm = ([(addr, size)], [(addr + (k % 2) * size, size)], None)
        dev.submit_kernel(s2 if k % 4 == 3 else s1, KernelLaunch(spec, None, gm), t)
        t += 300.0 if k % 3 else 0.0
        if k % 6 == 5:
            dev.run_until(None)
    dev.run_until(None)
    c = dev.l2_cache
    return (json.dumps(list(dev.kernel_records)), list(dev.recorder.spans), dev.env.now, dev.fast_kernels,
            (dev.hbm.free_at_ns, dev.hbm.busy_ns, dev.hbm.bytes_moved),
            (dev.l2.free_at_ns, dev.l2.busy_ns, dev.l2.bytes_moved),
            (list(c.lines.items()), sorted(map(repr, c.dirty)), c.hits, c.misses, c.evictions, c.writeback_bytes))


@pytest.mark.parametrize("dispatch", [True, False])
@pytest.mark.parametrize("l2_bytes", [64 * 1024, 1 << 26])
@pytest.mark.parametrize("name", ["ascend910b2", "tiny"])
def test_keyed_one_tile_loop_equals_general_loop(monkeypatch, name, l2_bytes, dispatch):
    chip = PRESETS[name].model_copy(update={"l2_bytes": l2_bytes})
    if not dispatch:
        chip = chip.model_copy(update={"block_dispatch_ns": 0.0})
    evicted = fast = 0
    for seed in range(4):
        monkeypatch.setattr(inline, "KEYED_ONE_TILE", False)
        ref = _run(chip, seed)
        monkeypatch.setattr(inline, "KEYED_ONE_TILE", True)
        new = _run(chip, seed)
        assert ref == new, seed
        evicted += ref[6][5]
        fast += ref[3]
    assert fast
    assert (evicted > 0) == (l2_bytes < 1 << 20)
