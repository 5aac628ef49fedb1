"""Timing-only mode (``acl.init(timing_only=True)``): no bytes are stored or computed,
and every simulated time equals the full run's.

The same op sequence (copies, Matmul, Convolution, Add, Relu, Softmax on two streams
with an event between them) runs once with real numbers and once timing-only; the
kernel records, every device span and the event-timed interval must be identical.
"""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from npu_sim import BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec
from npu_sim.chips.presets import TINY
from opsnn.base.cache import clear_executor_cache
from tests.conftest import DeviceHelper


def _sequence(h: DeviceHelper, rng) -> float:
    """Run the op sequence; returns the event-timed interval (ms)."""
    s1, ret = acl.rt.create_stream()
    assert ret == 0
    start, _ = acl.rt.create_event()
    mid, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    a = rng.standard_normal((96, 64)).astype(np.float16)
    b = rng.standard_normal((64, 80)).astype(np.float16)
    x = rng.standard_normal((1, 4, 12, 12)).astype(np.float32)
    w = rng.standard_normal((8, 4, 3, 3)).astype(np.float32)
    v = rng.standard_normal((96, 80)).astype(np.float32)
    _, ta = h.to_device(a)
    _, tb = h.to_device(b)
    _, tx = h.to_device(x)
    _, tw = h.to_device(w)
    _, tv = h.to_device(v)
    _, tc = h.empty((96, 80), np.float16)
    _, ty = h.empty((1, 8, 12, 12), np.float32)
    _, tz = h.empty((96, 80), np.float32)
    pr, tr = h.empty((96, 80), np.float32)
    _, ts = h.empty((96, 80), np.float32)
    assert acl.rt.record_event(start, 0) == 0

    def go(prep, launch, stream):
        ws, ex, ret = prep
        assert ret == 0, opsnn.aclGetRecentErrMsg()
        assert launch(h.malloc(ws) if ws else 0, ws, ex, stream) == 0, opsnn.aclGetRecentErrMsg()

    go(opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0), opsnn.aclnnMatmul, 0)
    go(opsnn.aclnnConvolutionGetWorkspaceSize(tx, tw, None, [1, 1], [1, 1], [1, 1], False, [0, 0], 1, ty, 0),
       opsnn.aclnnConvolution, 0)
    assert acl.rt.record_event(mid, 0) == 0
    assert acl.rt.stream_wait_event(s1, mid) == 0
    go(opsnn.aclnnAddGetWorkspaceSize(tv, tv, 0.5, tz), opsnn.aclnnAdd, s1)
    go(opsnn.aclnnReluGetWorkspaceSize(tz, tr), opsnn.aclnnRelu, s1)
    go(opsnn.aclnnSoftmaxGetWorkspaceSize(tr, 1, ts), opsnn.aclnnSoftmax, 0)
    assert acl.rt.record_event(end, 0) == 0
    assert acl.rt.synchronize_device() == 0
    out = np.zeros((96, 80), np.float32)
    ret = acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, pr, out.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
    assert ret == (0 if runtime().device.backed else 200006)   # timing-only: timed, but no data (issue 16)
    ms, ret = acl.rt.event_elapsed_time(start, end)
    assert ret == 0
    return ms, out


def _run(timing_only: bool):
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    assert acl.init(chip="tiny", timing_only=timing_only) == 0
    assert acl.rt.set_device(0) == 0
    clear_executor_cache()  # a cache hit would charge the host less for phase 1 in the second run
    try:
        ms, out = _sequence(DeviceHelper(), np.random.default_rng(5))
        dev = rt.device
        recs = [{k: v for k, v in r.items()} for r in dev.kernel_records]
        spans = [(s.track, s.name, s.start_ns, s.dur_ns, s.cat) for s in dev.recorder.spans]
        return ms, out, recs, spans, dev.memory, rt.clock.now_ns
    finally:
        acl.finalize()


def test_timing_only_gives_identical_simulated_times():
    ms_full, out_full, recs_full, spans_full, mem_full, host_full = _run(False)
    ms_t, out_t, recs_t, spans_t, mem_t, host_t = _run(True)
    assert ms_t == ms_full and host_t == host_full
    assert [r["name"] for r in recs_t] == ["Matmul", "TransData", "TransData", "Convolution", "TransData", "Add", "Relu",
                                         "Softmax"]   # aclnnConvolution's TransData kernels (NC1HWC0)
    assert recs_t == recs_full               # start, duration, pipe busy, bytes, ratios, bound: all of it
    assert spans_t == spans_full             # every host, stream and pipe span
    # the full run computed numbers, the timing-only one did not
    assert np.abs(out_full).sum() > 0
    assert mem_full.backed and not mem_t.backed


def test_timing_only_device_skips_bodies_and_stores_nothing():
    """Device(backed=False): kernel bodies never run, memory holds no bytes, and reading
    it fails with a readable message."""
    dev = Device(TINY, backed=False)
    ran = []
    spec = KernelSpec("k", CoreType.AIV, (BlockProgram((TileSpec((Stage(Pipe.VECTOR, vector_bytes=256),)),)),))
    dev.submit_kernel(dev.create_stream(), KernelLaunch(spec, lambda mem: ran.append(1)), 0.0)
    dev.run_until(None)
    assert ran == [] and len(dev.kernel_records) == 1
    addr = dev.memory.malloc(1 << 20)
    assert dev.memory.find(addr, 1 << 20).data is None
    with pytest.raises(Exception, match="not backed"):
        dev.memory.read(addr, 16)
