"""The one-tile loop (npu_sim/hardware/inline.py ``_one_tile_blocks``) takes the entries the
blocks' starts leave in sorted order, and turns the rest into a heap when a block yields
again meanwhile. Both ways give the generator path's results exactly (``inline.ONE_TILE_LOOP
= False`` the reference), with programs whose blocks yield once after their start (the usual
copy-in, compute, copy-out) and twice (a second compute and copy-out: the heap fallback)."""
from __future__ import annotations

import pytest

from npu_sim import BlockProgram, CoreType, Device, KernelSpec, KernelLaunch, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import inline


def _prog(nbytes: int, twice: bool) -> BlockProgram:
    st = [Stage(Pipe.MTE2, nbytes=nbytes), Stage(Pipe.VECTOR, vector_bytes=nbytes), Stage(Pipe.MTE3, nbytes=nbytes)]
    if twice:
        st += [Stage(Pipe.VECTOR, vector_bytes=2 * nbytes), Stage(Pipe.MTE3, nbytes=nbytes // 2)]
    return BlockProgram((TileSpec(tuple(st), 1),))


def _run(chip, twice: bool):
    """A few kernels of one-tile blocks (a main and a tail program) on one stream."""
    dev = Device(chip, backed=False)
    s = dev.create_stream()
    n = chip.vector_core_count
    main, tail = _prog(48 * 1024, twice), _prog(3000, twice)
    for k in range(4):
        spec = KernelSpec(f"k{k}", CoreType.AIV, (main,) * (n - 1 - k % 2) + (tail,), 2, {})
        dev.submit_kernel(s, KernelLaunch(spec, None, None), 100.0 * k)
    dev.run_until(None)
    return (dev.env.now, list(dev.kernel_records), list(dev.recorder.spans), dev.fast_kernels,
            (dev.hbm.free_at_ns, dev.hbm.busy_ns, dev.hbm.bytes_moved),
            [c.name for c in dev.scheduler.free[CoreType.AIV]])


@pytest.mark.parametrize("twice", [False, True])
@pytest.mark.parametrize("dispatch", [True, False])
def test_sorted_entries_equal_generators(monkeypatch, twice, dispatch):
    chip = PRESETS["ascend910b2"]
    if not dispatch:
        chip = chip.model_copy(update={"block_dispatch_ns": 0.0})
    monkeypatch.setattr(inline, "ONE_TILE_LOOP", False)
    _run(chip, twice)   # warm-up: phase 1's caches
    ref = _run(chip, twice)
    monkeypatch.setattr(inline, "ONE_TILE_LOOP", True)
    pushes = []
    real = inline.heappush
    monkeypatch.setattr(inline, "heappush", lambda h, e: (pushes.append(e), real(h, e)))
    new = _run(chip, twice)
    assert ref == new
    assert new[3] > 0   # the kernels took the fast path
    assert bool(pushes) == twice   # the heap only when a block yields again after its resume
