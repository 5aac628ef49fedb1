"""The uncontended fast path (``npu_sim.Device.fast_path``: a kernel's blocks run
without SimPy events when nothing else can run meanwhile) gives the event path's
results exactly: the same kernel records (start, duration, pipe busy ns, bytes,
metrics) and the same trace spans, float for float, on the benchmark workloads
(a chain of tiny Adds, one Matmul, an encoder layer, a decoder step, two streams
that contend), both paths run within one process."""
from __future__ import annotations

import numpy as np
import pytest

from npu_sim.device import FAST_PATH_ENV


def _workload(kind, **sizes):
    from acl_runtime.api import Session
    from acl_runtime.runtime import runtime
    from frontend.workloads.builders import decoder_step, encoder_layer
    from frontend.workloads.config import PRESETS
    build = {"encoder": encoder_layer, "decoder": decoder_step}[kind]
    cfg = PRESETS["bert-base" if kind == "encoder" else "llama-7b"]
    with Session("ascend910b2", timing_only=True) as s:
        res = build(s, cfg, **sizes).run()
        dev = runtime().device
        return (res.latency_ns, list(dev.kernel_records), list(dev.recorder.spans),
                dev.fast_kernels)


def _raw(case):
    """A case on the bare device API: a chain of tiny Adds on one stream, a Matmul,
    and (contended) the same kernels on two streams at once."""
    import opsnn
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    from opsnn.base.dtypes import from_numpy_dtype
    if runtime().initialized:
        acl.finalize()
    assert acl.init(timing_only=True) == 0 and acl.rt.set_device(0) == 0
    profiler.set_level("pipes")

    def empty(shape, dtype=np.float16):
        ptr, ret = acl.rt.malloc(int(np.prod(shape)) * np.dtype(dtype).itemsize, 0)
        assert ret == 0
        return opsnn.aclCreateTensor(shape, from_numpy_dtype(np.dtype(dtype)), None, 0, 2, shape, ptr)

    streams = [0]
    if case == "two_streams":
        s2, ret = acl.rt.create_stream()
        streams.append(s2)
    x, y = empty((1, 768)), empty((1, 768))
    a, c = empty((256, 256)), empty((256, 256))
    for k in range(20):
        for st in streams:
            ws, ex, _ = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
            opsnn.aclnnAdd(0, ws, ex, st)
            if k % 5 == 0:
                ws, ex, _ = opsnn.aclnnMatmulGetWorkspaceSize(a, a, c, 0)
                wp = acl.rt.malloc(ws, 0)[0] if ws else 0
                opsnn.aclnnMatmul(wp, ws, ex, st)
    acl.rt.synchronize_device()
    dev = runtime().device
    out = (dev.env.now, list(dev.kernel_records), list(dev.recorder.spans), dev.fast_kernels)
    acl.finalize()
    return out


def _both(monkeypatch, fn, *a, **k):
    """(event path, fast path) results of ``fn``, after a warm-up run: phase 1's
    caches make a process's first run cost more host time than the next."""
    monkeypatch.setenv(FAST_PATH_ENV, "0")
    fn(*a, **k)
    ref = fn(*a, **k)
    monkeypatch.setenv(FAST_PATH_ENV, "1")
    fast = fn(*a, **k)
    return ref, fast


@pytest.mark.parametrize("case", ["one_stream", "two_streams"])
def test_fast_path_equals_event_path_raw(monkeypatch, case):
    ref, fast = _both(monkeypatch, _raw, case)
    assert ref[3] == 0
    assert ref[:3] == fast[:3]
    if case == "one_stream":
        assert fast[3] == len(fast[1])   # every kernel took the fast path


@pytest.mark.parametrize("kind,sizes", [("encoder", dict(batch=1, seq=128)),
                                        ("decoder", dict(batch=1, cache_len=2048))])
def test_fast_path_equals_event_path_workloads(monkeypatch, kind, sizes):
    ref, fast = _both(monkeypatch, _workload, kind, **sizes)
    assert ref[3] == 0 and fast[3] > 0
    assert ref[:3] == fast[:3]
