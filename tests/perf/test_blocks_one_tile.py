"""The generator-free loop of one-tile blocks on the fast path
(npu_sim/hardware/inline.py ``_one_tile_blocks``) gives the generator path's results
exactly, float for float: kernel records, pipe spans, the clock and the HBM / L2
servers' state, on

* synthetic kernels on every chip preset (with and without block dispatch time): a
  main program and a tail program per kernel, transfers large enough that the
  blocks queue at the shared HBM, an L2-resident share (``KernelLaunch.gm``), and a
  second stream so that some kernels contend and take the event path;
* the benchmark workloads of tests/perf/test_fast_path.py (tiny-Add chain, two
  streams, encoder layer, decoder step) and a light ONNX model in graph mode.

``inline.ONE_TILE_LOOP = False`` is the reference (every block a ``run_block``
generator driven by ``run_blocks_inline``)."""
from __future__ import annotations

import pytest

from npu_sim import BlockProgram, CoreType, Device, GmRange, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips import PRESETS
from npu_sim.hardware import inline
from tests.perf.test_fast_path import _raw, _workload


def _prog(nbytes: int) -> BlockProgram:
    st = (Stage(Pipe.MTE2, nbytes=nbytes, gm_ranges=(GmRange(nbytes, run_bytes=nbytes // 3 + 1),)),
          Stage(Pipe.VECTOR, vector_bytes=nbytes), Stage(Pipe.MTE3, nbytes=nbytes))
    return BlockProgram((TileSpec(st, 1),))


def _synthetic(chip):
    """Kernels of one-tile blocks on two streams; returns everything the run produced."""
    dev = Device(chip, backed=False)
    s1, s2 = dev.create_stream(), dev.create_stream()
    nblk = chip.vector_core_count
    main, tail = _prog(64 * 1024), _prog(5000)
    t = 0.0
    for k in range(12):
        n = max(1, nblk - (k % 3))
        blocks = (main,) * (n - 1) + (tail,)
        spec = KernelSpec(f"k{k}", CoreType.AIV, blocks, 2, {})
        addr, size = 1 << 20, chip.l2_bytes // 8   # reads what the kernel before last wrote
        gm = ([(addr, size)], [(addr + (k % 2) * size, size)], None)
        dev.submit_kernel(s2 if k % 4 == 3 else s1, KernelLaunch(spec, None, gm), t)
        t += 500.0 if k % 5 else 0.0
        if k % 6 == 5:
            dev.run_until(None)
    dev.run_until(None)
    return (dev.env.now, list(dev.kernel_records), list(dev.recorder.spans), dev.fast_kernels,
            (dev.hbm.free_at_ns, dev.hbm.busy_ns, dev.hbm.bytes_moved),
            (dev.l2.free_at_ns, dev.l2.busy_ns, dev.l2.bytes_moved),
            [c.name for c in dev.scheduler.free[CoreType.AIV]])


def _ref_then_new(monkeypatch, fn, *a, **k):
    monkeypatch.setattr(inline, "ONE_TILE_LOOP", False)
    fn(*a, **k)   # warm-up: phase 1's caches
    ref = fn(*a, **k)
    monkeypatch.setattr(inline, "ONE_TILE_LOOP", True)
    return ref, fn(*a, **k)


@pytest.mark.parametrize("dispatch", [True, False])
@pytest.mark.parametrize("name", sorted(PRESETS))
def test_one_tile_loop_equals_generators_synthetic(monkeypatch, name, dispatch):
    chip = PRESETS[name]
    if not dispatch:
        chip = chip.model_copy(update={"block_dispatch_ns": 0.0})
    ref, new = _ref_then_new(monkeypatch, _synthetic, chip)
    assert ref == new
    assert new[3] > 0   # some kernels took the fast path
    assert ref[4][1] > 0   # HBM booked
    assert ref[5][1] > 0 or not chip.l2_cross_kernel_reuse   # and the L2-resident share
    busy = [r["dur_ns"] for r in ref[1]]
    assert len(set(busy)) > 1


def test_synthetic_blocks_queue_at_hbm():
    """The synthetic main blocks contend: the HBM ends later than a lone block's MTE2."""
    chip = PRESETS["ascend910b2"]
    out = _synthetic(chip)
    spans = [s for s in out[2] if s.cat == "pipe" and s.name == "k0" and s.track[1].endswith("MTE2")]
    durs = sorted(s.dur_ns for s in spans)
    assert durs[-1] > 2 * durs[0]


@pytest.mark.parametrize("case", ["one_stream", "two_streams"])
def test_one_tile_loop_equals_generators_raw(monkeypatch, case):
    ref, new = _ref_then_new(monkeypatch, _raw, case)
    assert ref == new


@pytest.mark.parametrize("kind,sizes", [("encoder", dict(batch=1, seq=128)),
                                        ("decoder", dict(batch=1, cache_len=2048))])
def test_one_tile_loop_equals_generators_workloads(monkeypatch, kind, sizes):
    ref, new = _ref_then_new(monkeypatch, _workload, kind, **sizes)
    assert ref == new


def _model(name):
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    from benchmarks.sim_speed import _declared_inputs, _feeds
    from frontend.cli.common import load_graph, resolve_model
    from frontend.runner import ModelRunner
    import onnx
    proto = onnx.load(str(resolve_model(name)))
    feeds = _feeds(_declared_inputs(proto))
    graph = load_graph(proto, overrides=feeds, timing_only=True)
    if runtime().initialized:
        acl.finalize()
    assert acl.init(timing_only=True) == 0 and acl.rt.set_device(0) == 0
    profiler.set_level("pipes")
    runner = ModelRunner(graph, mode="graph", memory="planned")
    runner.prepare()
    res = runner.run(feeds)
    dev = runtime().device
    out = (res.device_ns, list(dev.kernel_records), list(dev.recorder.spans), dev.fast_kernels)
    acl.finalize()
    return out


def test_one_tile_loop_equals_generators_model(monkeypatch):
    ref, new = _ref_then_new(monkeypatch, _model, "light_squeezenet")
    assert ref == new and new[3] > 0
