"""The sanitizer's use-after-free, event-order and needless-sync findings: each on a
planted bug, naming both tasks (op, stream, host call site), and silent once fixed."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import opsnn
from acl_runtime import Session, sanitizer
from acl_runtime.host_clock import HOST_COST_NS
from acl_runtime.runtime import runtime
from acl_runtime.sanitizer import SanitizerWarning

N = 1024


def _relu(x, y, st):
    opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, x, y, stream=st)


def _kinds(s):
    return [f.kind for f in s.findings]


def _assert_silent(program, *args) -> None:
    """Run ``program(session, *args)`` sanitized: no SanitizerWarning, no finding."""
    with Session(chip="tiny", sanitize=True) as s:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SanitizerWarning)
            program(s, *args)
        assert s.findings == []


def _uaf(s: Session, fix: str | None, pool: bool):
    """A kernel on stream b reads x; then x's bytes go back to the host (``pool``
    False) or to stream a's caching pool (``pool`` True). ``fix``: "sync" (b is
    synchronized first) or "event" (a waits on an event recorded after the kernel)."""
    a, b = s.stream(), s.stream()
    x = s.to_device(np.ones(N, np.float32))
    y = s.empty((N,), np.float32)
    _relu(x, y, b)
    if fix == "sync":
        b.synchronize()
    elif fix == "event":
        e = s.event()
        e.record(b)
        a.wait(e)
    sanitizer.released(x.ptr, x.nbytes, stream=a if pool else None, what="cache free of x")
    a.synchronize()
    b.synchronize()
    return x


@pytest.mark.parametrize("pool", [False, True])
def test_use_after_free_is_reported(pool):
    with Session(chip="tiny", sanitize=True) as s:
        with pytest.warns(SanitizerWarning, match="use after free"):
            x = _uaf(s, None, pool)
        (f,) = [f for f in s.findings if f.kind == "use-after-free"]
        assert f.first.what == "aclnnRelu" and f.second.what == "cache free of x"
        assert f.first.site.startswith("test_sanitizer_findings.py:")
        assert f.second.site.startswith("test_sanitizer_findings.py:")
        assert x.ptr <= f.lo < f.hi <= x.ptr + x.nbytes


@pytest.mark.parametrize("fix,pool", [("sync", False), ("sync", True), ("event", True)])
def test_use_after_free_fixed_is_silent(fix, pool):
    with Session(chip="tiny", sanitize=True) as s:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SanitizerWarning)
            _uaf(s, fix, pool)
        assert "use-after-free" not in _kinds(s)


def _event_order(s: Session, fixed: bool):
    """Stream b should follow a's first relu. Bug: b's wait is issued before the event
    is recorded, and the record comes only after a second relu on a, so b waits for
    that too. Fix: record right after the first relu, then wait."""
    a, b = s.stream(), s.stream()
    x = s.to_device(np.ones(N, np.float32))
    y1, y2, z = (s.empty((N,), np.float32) for _ in range(3))
    e = s.event()
    _relu(x, y1, a)
    if fixed:
        e.record(a)
        b.wait(e)
        _relu(x, y2, a)
    else:
        b.wait(e)
        _relu(x, y2, a)
        e.record(a)
    _relu(y1, z, b)
    a.synchronize()
    b.synchronize()


def test_event_order_is_reported():
    with Session(chip="tiny", sanitize=True) as s:
        with pytest.warns(SanitizerWarning, match="event order"):
            _event_order(s, fixed=False)
        (f,) = [f for f in s.findings if f.kind == "event-order"]
        assert f.first.what.startswith("aclrtStreamWaitEvent") and f.second.what.startswith("aclrtRecordEvent")
        assert f.first.stream != f.second.stream
        assert f.first.site.startswith("test_sanitizer_findings.py:") and f.second.site.startswith(
            "test_sanitizer_findings.py:")


def test_event_order_fixed_is_silent():
    _assert_silent(_event_order, True)


def test_a_wait_before_a_record_with_no_work_between_is_fine():
    """The benchmark's gate: every stream waits on an event recorded later by a stream
    that enqueued nothing meanwhile: no finding."""
    with Session(chip="tiny", sanitize=True) as s:
        a, opener = s.stream(), s.stream()
        x = s.to_device(np.ones(N, np.float32))
        y = s.empty((N,), np.float32)
        gate = s.event()
        a.wait(gate)
        _relu(x, y, a)
        gate.record(opener)
        a.synchronize()
        assert s.findings == []


def _one_stream_then_sync(s: Session, fixed: bool):
    a = s.stream()
    x = s.to_device(np.ones(N, np.float32))
    y = s.empty((N,), np.float32)
    _relu(x, y, a)
    if fixed:
        a.synchronize()
    else:
        s.synchronize()


def test_needless_device_sync_is_a_warning_with_its_bubble():
    with Session(chip="tiny", sanitize=True) as s:
        with pytest.warns(SanitizerWarning, match="needless device-wide sync"):
            _one_stream_then_sync(s, fixed=False)
        (f,) = [f for f in s.findings if f.kind == "needless-sync"]
        assert f.first.what == "aclnnRelu" and f.second.what == "aclrtSynchronizeDevice"
        assert f.second.site.startswith("test_sanitizer_findings.py:")
        # the bubble: the relu's end on the device clock to the host's return, plus the next launch
        rec = runtime().device.kernel_records[-1]
        idle = max(s.host_ns - (rec["start_ns"] + rec["dur_ns"]), 0.0)
        assert f.bubble_ns == pytest.approx(idle + HOST_COST_NS["aclnn_launch"]) and f.bubble_ns > 0
        assert f"{f.bubble_ns:.0f} ns bubble" in str(f)


def test_stream_sync_instead_is_silent():
    _assert_silent(_one_stream_then_sync, True)


def test_device_sync_over_two_busy_streams_is_fine():
    with Session(chip="tiny", sanitize=True) as s:
        a, b = s.stream(), s.stream()
        x = s.to_device(np.ones(N, np.float32))
        y, z = s.empty((N,), np.float32), s.empty((N,), np.float32)
        _relu(x, y, a)
        _relu(x, z, b)
        s.synchronize()
        assert s.findings == []


def test_aclrtfree_then_reuse_on_another_stream_is_silent():
    """aclrtFree waits for all queued work, so the bytes' next owner (a new allocation at
    the same address, written on another stream) is ordered after the old tasks."""
    with Session(chip="tiny", sanitize=True) as s:
        a, b = s.stream(), s.stream()
        x = s.to_device(np.ones(N, np.float32))
        y = s.empty((N,), np.float32)
        _relu(x, y, a)
        ptr = y.ptr
        y.free()
        y2 = s.empty((N,), np.float32)
        assert y2.ptr == ptr
        with warnings.catch_warnings():
            warnings.simplefilter("error", SanitizerWarning)
            _relu(x, y2, b)
            b.synchronize()
        assert s.findings == []
