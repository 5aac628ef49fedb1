"""The stream runner (``npu_sim/stream_runner.py``: one SimPy process per stream, a
task's end processed in its own last step when SimPy would process it next) gives
the per-task-process design's results exactly: the same kernel records, device and
host spans, counters, event timestamps and device clock, float for float, within one
process, event path and fast path. The cases: several streams joined by events
(waits before and after their record, records waited on by two streams at once),
async copies and synchronizing calls in between, a captured graph with a fork and
a join replayed with its arena samples (callbacks on the kernels' ends), the fast
path's workloads (tests/perf/test_fast_path.py), and a chain of tiny Adds at one
SimPy step per kernel."""
from __future__ import annotations

import numpy as np
import pytest

from npu_sim.device import FAST_PATH_ENV, STREAM_RUNNER_ENV
from tests.perf.test_fast_path import _raw, _workload


def _outputs():
    from acl_runtime import profiler
    from acl_runtime.runtime import runtime
    dev = runtime().device
    host = runtime().profiler.host
    return (dev.env.now, list(dev.kernel_records), list(dev.recorder.spans), list(dev.recorder.counters),
            list(host.spans), list(host.counters), profiler.kernels_completed() if hasattr(profiler, "kernels_completed")
            else None)


def _tensor(shape, dtype=np.float16):
    import opsnn
    from acl_runtime import acl
    from opsnn.base.dtypes import from_numpy_dtype
    ptr, ret = acl.rt.malloc(int(np.prod(shape)) * np.dtype(dtype).itemsize, 0)
    assert ret == 0
    return opsnn.aclCreateTensor(shape, from_numpy_dtype(np.dtype(dtype)), None, 0, 2, shape, ptr), ptr


def _init():
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    assert acl.init(timing_only=True) == 0 and acl.rt.set_device(0) == 0
    profiler.set_level("pipes")


def _add(x, y, st):
    import opsnn
    ws, ex, _ = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
    assert opsnn.aclnnAdd(0, ws, ex, st) == 0


def _matmul(a, c, st):
    import opsnn
    from acl_runtime import acl
    ws, ex, _ = opsnn.aclnnMatmulGetWorkspaceSize(a, a, c, 0)
    wp = acl.rt.malloc(ws, 0)[0] if ws else 0
    assert opsnn.aclnnMatmul(wp, ws, ex, st) == 0


def _events_graph():
    """Three streams joined by events, with copies and synchronizing calls between."""
    from acl_runtime import acl
    _init()
    s1, s2 = acl.rt.create_stream()[0], acl.rt.create_stream()[0]
    ev = [acl.rt.create_event()[0] for _ in range(4)]
    (x, _), (y, yp) = _tensor((1, 768)), _tensor((1, 768))
    (a, _), (c, _) = _tensor((256, 256)), _tensor((256, 256))
    (_, zp) = _tensor((1, 768))
    stamps = []
    for k in range(6):
        assert acl.rt.stream_wait_event(s2, ev[0]) == 0          # a wait before its record
        _matmul(a, c, 0)
        _add(x, y, 0)
        assert acl.rt.record_event(ev[0], 0) == 0
        assert acl.rt.stream_wait_event(s1, ev[0]) == 0          # two streams wait on one record
        _add(x, y, s1)
        _add(x, y, s2)
        _matmul(a, c, s2)
        assert acl.rt.record_event(ev[1], s1) == 0
        assert acl.rt.record_event(ev[2], s2) == 0
        assert acl.rt.stream_wait_event(0, ev[1]) == 0
        assert acl.rt.stream_wait_event(0, ev[2]) == 0
        assert acl.rt.memcpy_async(zp, 1536, yp, 1536, acl.ACL_MEMCPY_DEVICE_TO_DEVICE, s1) == 0
        _add(x, y, 0)
        if k % 2:
            assert acl.rt.synchronize_stream(s1) == 0
        if k % 3 == 2:
            assert acl.rt.record_event(ev[3], s2) == 0
            assert acl.rt.synchronize_event(ev[3]) == 0
            stamps.append(acl.rt.event_get_timestamp(ev[3]))
        # two streams wait on one queued record and act at once when it runs: the first
        # one's next task (a record, whose span comes at its start) must not run before
        # the second one's wait has ended
        _matmul(a, c, 0)
        assert acl.rt.record_event(ev[0], 0) == 0
        assert acl.rt.stream_wait_event(s1, ev[0]) == 0
        assert acl.rt.stream_wait_event(s2, ev[0]) == 0
        assert acl.rt.record_event(ev[1], s1) == 0
        assert acl.rt.memcpy_async(zp, 1536, yp, 1536, acl.ACL_MEMCPY_DEVICE_TO_DEVICE, s2) == 0
        assert acl.rt.synchronize_event(ev[0]) == 0
        assert acl.rt.memcpy_async(yp, 1536, zp, 1536, acl.ACL_MEMCPY_DEVICE_TO_DEVICE, s1) == 0
    assert acl.rt.synchronize_device() == 0
    stamps.append(acl.rt.event_elapsed_time(ev[0], ev[2]))
    return _outputs(), stamps


def _captured_graph():
    """A captured fork/join graph (events across two streams), replayed with arena samples."""
    from acl_runtime import acl
    M = acl.mdl
    _init()
    s, t = acl.rt.create_stream()[0], acl.rt.create_stream()[0]
    fork, join = acl.rt.create_event()[0], acl.rt.create_event()[0]
    (x, _), (y, _) = _tensor((1, 768)), _tensor((1, 768))
    (a, _), (c, _) = _tensor((256, 256)), _tensor((256, 256))
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    _add(x, y, s)
    assert acl.rt.record_event(fork, s) == 0
    assert acl.rt.stream_wait_event(t, fork) == 0
    _matmul(a, c, t)
    _add(x, y, s)
    assert acl.rt.record_event(join, t) == 0
    assert acl.rt.stream_wait_event(s, join) == 0
    _add(x, y, s)
    ri, ret = M.ri_capture_end(s)
    assert ret == 0, acl.get_recent_err_msg()
    assert M.ri_set_arena_use(ri, [10, 20, 30, 40, 0]) == 0
    for _ in range(3):
        assert M.ri_execute_async(ri, s) == 0
        _add(x, y, s)
    assert acl.rt.synchronize_device() == 0
    assert M.ri_execute(ri) == 0
    return _outputs()


def _both(monkeypatch, fn, *a, **k):
    """(per-task processes, stream runner) results of ``fn`` after a warm-up run."""
    fn(*a, **k)
    with monkeypatch.context() as m:
        m.setenv(STREAM_RUNNER_ENV, "0")
        ref = fn(*a, **k)
    return ref, fn(*a, **k)


#: the cases: a function and its arguments
CASES = {"events": (_events_graph,), "capture": (_captured_graph,), "one_stream": (_raw, "one_stream"),
         "two_streams": (_raw, "two_streams"), "decoder": (_workload, "decoder")}


@pytest.mark.parametrize("fast", ["0", "1"])
@pytest.mark.parametrize("case", list(CASES))
def test_runner_equals_task_processes(monkeypatch, case, fast):
    monkeypatch.setenv(FAST_PATH_ENV, fast)
    fn, *args = CASES[case]
    kw = {"batch": 1, "cache_len": 2048} if case == "decoder" else {}
    ref, new = _both(monkeypatch, fn, *args, **kw)
    assert ref == new


def test_tiny_kernel_one_event(monkeypatch):
    """A chain of tiny Adds queued before one synchronize, host-bound, fast path: one
    SimPy event per kernel (its launch event; its end is processed in that step),
    counted by the environment's event ids."""
    import opsnn
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    monkeypatch.setenv(FAST_PATH_ENV, "1")
    _init()
    profiler.set_level("kernels")
    (x, _), (y, _) = _tensor((1, 768)), _tensor((1, 768))
    ws, ex, _ = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
    opsnn.aclSetAclOpExecutorRepeatable(ex)
    env = runtime().device.env
    before = next(env._eid)
    n = 200
    for _ in range(n):
        assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    acl.rt.synchronize_device()
    assert next(env._eid) - before - 1 <= n + 1
    acl.finalize()
