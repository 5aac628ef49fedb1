"""Fewer SimPy events per kernel, the same times (issue 17, simfast2): a stream task
queued behind an unfinished one has no Initialize event (``npu_sim.device._Queued``),
and a kernel that waits for its host enqueue time pays that wait and its launch
latency with one event when nothing else can act (``Device._one_event_ok``). Both
run within one process against the two-event path, on the workloads of
tests/perf/test_fast_path.py, event path and fast path: every kernel record, span
and the device clock must be equal, float for float."""
from __future__ import annotations

import pytest
import simpy

from npu_sim.device import FAST_PATH_ENV, Device
from tests.perf.test_fast_path import _raw, _workload


def _with_and_without(monkeypatch, fn, *a, **k):
    """(two events, one event) results of ``fn`` after a warm-up run."""
    fn(*a, **k)
    with monkeypatch.context() as m:
        m.setattr(Device, "_one_event_ok", lambda self: False)
        ref = fn(*a, **k)
    return ref, fn(*a, **k)


@pytest.mark.parametrize("fast", ["0", "1"])
@pytest.mark.parametrize("case", ["one_stream", "two_streams"])
def test_one_event_wait_equals_two_raw(monkeypatch, case, fast):
    monkeypatch.setenv(FAST_PATH_ENV, fast)
    ref, new = _with_and_without(monkeypatch, _raw, case)
    assert ref == new


@pytest.mark.parametrize("fast", ["0", "1"])
def test_one_event_wait_equals_two_decoder(monkeypatch, fast):
    monkeypatch.setenv(FAST_PATH_ENV, fast)
    ref, new = _with_and_without(monkeypatch, _workload, "decoder", batch=1, cache_len=2048)
    assert ref == new


def test_tiny_kernel_two_steps(monkeypatch):
    """A chain of tiny Adds queued before one synchronize, host-bound, fast path: two
    SimPy steps per kernel (its start event and its end), not four."""
    import numpy as np

    import opsnn
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from opsnn.base.dtypes import from_numpy_dtype
    monkeypatch.setenv(FAST_PATH_ENV, "1")
    if runtime().initialized:
        acl.finalize()
    assert acl.init(timing_only=True) == 0 and acl.rt.set_device(0) == 0
    ts = []
    for _ in range(2):
        ptr, _ = acl.rt.malloc(1536, 0)
        ts.append(opsnn.aclCreateTensor((1, 768), from_numpy_dtype(np.dtype(np.float16)), None, 0, 2, (1, 768), ptr))
    ws, ex, _ = opsnn.aclnnAddGetWorkspaceSize(ts[0], ts[0], 1.0, ts[1])
    opsnn.aclSetAclOpExecutorRepeatable(ex)
    opsnn.aclnnAdd(0, ws, ex, 0)
    acl.rt.synchronize_device()
    steps = [0]
    orig = simpy.Environment.step

    def counting(self):
        steps[0] += 1
        return orig(self)
    monkeypatch.setattr(simpy.Environment, "step", counting)
    n = 200
    for _ in range(n):
        opsnn.aclnnAdd(0, ws, ex, 0)
    acl.rt.synchronize_device()
    acl.finalize()
    assert steps[0] <= 2 * n + 1
