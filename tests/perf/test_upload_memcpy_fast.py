"""A blocking copy on an idle device runs without SimPy steps (``npu_sim.memcpy_fast``);
``memcpy_fast.ENABLED = False`` is the reference (every copy through the event loop).
Both must give the same device clock, device and host spans, counters, kernel
records, stream errors and copied bytes, float for float, within one process: blocking
H2D / D2H / D2D copies and memsets on an idle device (the fast path) mixed with
kernels, async copies and a second stream that keep the device busy (the SimPy path),
a failing copy (a stream error on both paths), backed and timing-only, with the
stream runner on and off; and ModelRunner.prepare of a small model."""
from __future__ import annotations

import numpy as np
import pytest

from npu_sim import memcpy_fast
from npu_sim.device import STREAM_RUNNER_ENV


def _outputs():
    from acl_runtime.runtime import runtime
    dev = runtime().device
    host = runtime().profiler.host
    return (dev.env.now, list(dev.kernel_records), list(dev.recorder.spans), list(dev.recorder.counters),
            list(host.spans), list(host.counters), dev.host_link.free_at_ns, dev.hbm.free_at_ns,
            {sid: (s.task_count, list(s.errors)) for sid, s in dev.streams.items()})


def _init(timing_only: bool):
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    assert acl.init(timing_only=timing_only) == 0 and acl.rt.set_device(0) == 0
    profiler.set_level("pipes")


def _copies(timing_only: bool):
    """Blocking copies on an idle and on a busy device, kernels, async copies, a
    second stream, a memset and a copy whose bytes cannot be applied."""
    import opsnn
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from opsnn.base.dtypes import from_numpy_dtype
    _init(timing_only)
    rng = np.random.default_rng(0)
    H2D, D2H, D2D = acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST, acl.ACL_MEMCPY_DEVICE_TO_DEVICE
    s1 = acl.rt.create_stream()[0]
    host = [rng.standard_normal(n).astype(np.float16) for n in (768, 4096, 33, 768)]
    ptrs = [acl.rt.malloc(a.nbytes, 0)[0] for a in host]
    out = []
    for k in range(4):
        for a, p in zip(host, ptrs):   # blocking uploads: idle device, then behind queued work
            assert acl.rt.memcpy(p, a.nbytes, acl.util.numpy_to_ptr(a), a.nbytes, H2D) == 0
        x = opsnn.aclCreateTensor((1, 768), from_numpy_dtype(np.dtype(np.float16)), None, 0, 2, (1, 768), ptrs[0])
        y = opsnn.aclCreateTensor((1, 768), from_numpy_dtype(np.dtype(np.float16)), None, 0, 2, (1, 768), ptrs[3])
        ws, ex, _ = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
        assert opsnn.aclnnAdd(0, ws, ex, s1 if k % 2 else 0) == 0      # queued: the next copy is not idle
        assert acl.rt.memcpy(ptrs[2], 66, acl.util.numpy_to_ptr(host[2]), 66, H2D) == 0
        assert acl.rt.memcpy_async(ptrs[1], 2048, ptrs[1] + 2048, 2048, D2D, s1) == 0
        assert acl.rt.memcpy(ptrs[0], 1536, ptrs[3], 1536, D2D) == 0
        assert acl.rt.synchronize_device() == 0
        assert acl.rt.memset(ptrs[2], 66, k + 1, 10) == 0                # idle: fast
        assert acl.rt.memcpy(ptrs[1], 1536, ptrs[0], 1536, D2D) == 0     # idle: fast
        back = np.empty(768, np.float16)
        ret = acl.rt.memcpy(acl.util.numpy_to_ptr(back), back.nbytes, ptrs[3], back.nbytes, D2H)
        assert ret == (acl.constants.ACL_ERROR_FEATURE_UNSUPPORTED if timing_only else 0)
        if not timing_only:   # timing-only: the copy is timed, the host buffer left as it was
            out.append(back.copy())
    if not timing_only:   # a copy whose bytes fail to land: a stream error on both paths
        dev = runtime().device
        s = runtime().context.default_stream
        ev = dev.submit_memcpy(s, 8, "D2D", lambda: 1 / 0, runtime().context.clock.now_ns, None, None, True)
        runtime().streams.wait(ev, None, 0)
        assert s.errors == ["memcpy D2D: division by zero"]
        s.errors.clear()
        buf = np.empty(sum(a.nbytes for a in host), np.uint8)
        for a, p in zip(host, ptrs):
            b = np.empty(a.nbytes, np.uint8)
            assert acl.rt.memcpy(acl.util.numpy_to_ptr(b), b.nbytes, p, b.nbytes, D2H) == 0
            out.append(b)
        del buf
    return _outputs(), out


@pytest.mark.parametrize("timing_only", [True, False])
@pytest.mark.parametrize("runner", ["1", "0"])
def test_blocking_copies_match_the_event_path(monkeypatch, timing_only, runner):
    monkeypatch.setenv(STREAM_RUNNER_ENV, runner)
    taken = []
    real = memcpy_fast.run_now
    monkeypatch.setattr(memcpy_fast, "run_now", lambda *a: taken.append(a[5]) or real(*a))
    ref_enabled = memcpy_fast.ENABLED
    try:
        memcpy_fast.ENABLED = False
        _copies(timing_only)   # warm: opsnn's executor cache (a cached phase 1 costs less host time)
        ref = _copies(timing_only)
        assert not taken
        memcpy_fast.ENABLED = True
        fast = _copies(timing_only)
    finally:
        memcpy_fast.ENABLED = ref_enabled
    assert {"memcpy H2D", "memcpy D2D", "memcpy MEMSET", "memcpy D2H"} <= set(taken)
    assert fast[0] == ref[0]
    assert len(fast[1]) == len(ref[1]) and all(np.array_equal(a, b) for a, b in zip(fast[1], ref[1]))


def test_prepare_matches_the_event_path(monkeypatch):
    """ModelRunner.prepare + run of a small conv model (its weights uploaded by blocking
    copies): same spans, records and outputs on both paths."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    from frontend.onnx_import import load_onnx
    from frontend.runner import ModelRunner
    rng = np.random.default_rng(1)
    w = rng.standard_normal((8, 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(8).astype(np.float32)
    g = helper.make_graph([helper.make_node("Conv", ["x", "w", "b"], ["c"], pads=[1, 1, 1, 1]),
                           helper.make_node("Relu", ["c"], ["y"])], "g",
                          [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 8, 8, 8])],
                          [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    feeds = {"x": rng.standard_normal((1, 3, 8, 8)).astype(np.float32)}

    def once():
        _init(False)
        r = ModelRunner(load_onnx(onnx.load_from_string(model.SerializeToString())), mode="graph", memory="planned")
        r.prepare()
        res = r.run(feeds)
        return _outputs(), res.device_ns, res.outputs["y"]

    ref_enabled = memcpy_fast.ENABLED
    try:
        memcpy_fast.ENABLED = False
        once()   # warm: opsnn's executor cache
        ref = once()
        memcpy_fast.ENABLED = True
        fast = once()
    finally:
        memcpy_fast.ENABLED = ref_enabled
    assert fast[0] == ref[0] and fast[1] == ref[1]
    np.testing.assert_array_equal(fast[2], ref[2])


def test_run_until_takes_no_step_for_a_processed_event():
    """``acl_runtime.interrupt.run_until`` with an event already processed (what a
    blocking copy on an idle device returns) hands the launch queue over and returns
    True without stepping the device: a task queued on another stream stays queued,
    as ``Device.run_until`` would leave it."""
    import simpy
    from acl_runtime.interrupt import run_until
    from npu_sim import Device
    from npu_sim.chips import PRESETS
    dev = Device(PRESETS["tiny"], backed=False)
    s0, s1 = dev.create_stream(), dev.create_stream()
    done = memcpy_fast.run_now(dev, s0, dev._run_memcpy, (s0, 4096, "H2D", None, None, None), 50.0, "memcpy H2D")
    assert done.processed and dev.env.now > 50.0 and s0.task_count == 1
    pending = dev.submit_memcpy(s1, 4096, "D2D", None, dev.env.now)
    flushed = []
    assert run_until(dev, done, None, lambda: flushed.append(1)) is True
    assert flushed == [1] and not pending.processed and dev.env._queue
    assert run_until(dev, pending) is True and pending.processed
    ev = simpy.Event(dev.env)
    assert run_until(dev, ev) is False   # nothing left that could trigger it: a deadlock, as before
