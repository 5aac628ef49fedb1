"""Streams, events and the two clocks, through the pyACL-style binding.

A stream runs its tasks in order; an event recorded on one stream orders work on
another (aclrtStreamWaitEvent). The device clock advances only at synchronization;
a task never starts before the host enqueued it (DESIGN.md section 2).
"""
from __future__ import annotations

import time

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime.host_clock import HOST_COST_NS
from acl_runtime.runtime import runtime

from .conftest import fill_body, stream_spans, vector_launch

D2H = acl.ACL_MEMCPY_DEVICE_TO_HOST
H2D = acl.ACL_MEMCPY_HOST_TO_DEVICE
LONG = 100_000   # vector repeats: a 100 us kernel on tiny (1 GHz, one 256 B repeat per cycle)


def _two_streams():
    a, ret_a = acl.rt.create_stream()
    b, ret_b = acl.rt.create_stream()
    assert ret_a == ret_b == 0 and a != b and a and b
    return a, b


def _kernel_record(stream_id):
    (rec,) = [r for r in runtime().device.kernel_records if r["stream"] == stream_id]
    return rec


def test_wait_event_orders_a_copy_after_a_long_kernel(npu):
    """A copy on stream B that waits on an event recorded after a long kernel on stream A
    starts only once the kernel has ended, and so reads the kernel's result."""
    sa, sb = _two_streams()
    n = 1024
    buf = npu.malloc(4 * n)
    host = np.full(n, -1.0, np.float32)
    ev, ret = acl.rt.create_event()
    assert ret == 0
    runtime().launch_kernel(sa, vector_launch(LONG, fill_body(buf, n, 7.0)))
    assert acl.rt.record_event(ev, sa) == 0
    assert acl.rt.stream_wait_event(sb, ev) == 0
    assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(host), 4 * n, buf, 4 * n, D2H, sb) == 0
    assert acl.rt.synchronize_stream(sb) == 0
    kernel = _kernel_record(sa)
    (copy,) = stream_spans(sb, "MEMCPY D2H")
    assert copy.start_ns >= kernel["start_ns"] + kernel["dur_ns"]
    assert (host == 7.0).all()


def test_without_the_wait_the_copy_races_ahead(npu):
    """Control: the same copy with no event wait starts while the kernel still runs and
    reads the old bytes (a real race, as on hardware)."""
    sa, sb = _two_streams()
    n = 1024
    buf = npu.malloc(4 * n)
    host = np.full(n, -1.0, np.float32)
    runtime().launch_kernel(sa, vector_launch(LONG, fill_body(buf, n, 7.0)))
    assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(host), 4 * n, buf, 4 * n, D2H, sb) == 0
    assert acl.rt.synchronize_device() == 0
    kernel = _kernel_record(sa)
    (copy,) = stream_spans(sb, "MEMCPY D2H")
    assert copy.start_ns + copy.dur_ns < kernel["start_ns"] + kernel["dur_ns"]
    assert (host == 0.0).all()


def test_wait_before_record_binds_to_the_next_record(npu):
    """A wait enqueued before any record waits for the next record of that event."""
    sa, sb = _two_streams()
    ev, _ = acl.rt.create_event()
    assert acl.rt.stream_wait_event(sb, ev) == 0
    dst = npu.malloc(64)
    src = np.ones(16, np.float32)
    assert acl.rt.memcpy_async(dst, 64, acl.util.numpy_to_ptr(src), 64, H2D, sb) == 0
    runtime().launch_kernel(sa, vector_launch(LONG))
    assert acl.rt.record_event(ev, sa) == 0
    assert acl.rt.synchronize_device() == 0
    kernel = _kernel_record(sa)
    (copy,) = stream_spans(sb, "MEMCPY H2D")
    assert copy.start_ns >= kernel["start_ns"] + kernel["dur_ns"]


def test_tasks_on_one_stream_run_in_order(npu):
    """Two kernels on one stream never overlap; the second starts after the first ends."""
    s, _ = acl.rt.create_stream()
    runtime().launch_kernel(s, vector_launch(5000, name="first"))
    runtime().launch_kernel(s, vector_launch(10, name="second"))
    assert acl.rt.synchronize_stream(s) == 0
    first, second = runtime().device.kernel_records
    assert (first["name"], second["name"]) == ("first", "second")
    assert second["start_ns"] >= first["start_ns"] + first["dur_ns"]


def test_event_elapsed_time_is_the_device_time_between_records(npu):
    """aclrtEventElapsedTime (ms) equals the device-time difference of the two records:
    here the kernel's duration plus the host launch cost that delayed its start."""
    s, _ = acl.rt.create_stream()
    e1, _ = acl.rt.create_event()
    e2, _ = acl.rt.create_event()
    assert acl.rt.record_event(e1, s) == 0
    runtime().launch_kernel(s, vector_launch(20_000))
    assert acl.rt.record_event(e2, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    ms, ret = acl.rt.event_elapsed_time(e1, e2)
    assert ret == 0
    r1, r2 = stream_spans(s, "EVENT_RECORD")
    assert ms * 1e6 == pytest.approx(r2.start_ns - r1.start_ns)
    kernel = _kernel_record(s)
    assert r1.start_ns <= kernel["start_ns"] and kernel["start_ns"] + kernel["dur_ns"] == r2.start_ns
    # the kernel was enqueued one launch cost after the first record, and ran at once
    assert ms * 1e6 == pytest.approx(HOST_COST_NS["aclnn_launch"] + kernel["dur_ns"])
    assert acl.rt.event_elapsed_time(e2, e1)[0] == pytest.approx(-ms)


def test_event_elapsed_time_errors_before_record_and_sync(npu):
    """Elapsed time needs both events recorded and completed: otherwise (0.0, 100000)."""
    s, _ = acl.rt.create_stream()
    e1, _ = acl.rt.create_event()
    e2, _ = acl.rt.create_event()
    assert acl.rt.event_elapsed_time(e1, e2) == (0.0, 100000)
    assert "record" in acl.get_recent_err_msg()
    acl.rt.record_event(e1, s)
    runtime().launch_kernel(s, vector_launch(1000))
    acl.rt.record_event(e2, s)
    assert acl.rt.event_elapsed_time(e1, e2) == (0.0, 100000)   # recorded, not yet run
    assert acl.rt.synchronize_event(e2) == 0
    ms, ret = acl.rt.event_elapsed_time(e1, e2)
    assert ret == 0 and ms > 0
    assert acl.rt.event_elapsed_time(e1, 12345) == (0.0, 100000)


def test_sync_on_an_event_nobody_records_returns_507046(npu):
    """A stream waiting on an event that is never recorded cannot finish: synchronize
    returns ACL_ERROR_RT_STREAM_SYNC_TIMEOUT with a message, at once, instead of hanging."""
    s, _ = acl.rt.create_stream()
    ev, _ = acl.rt.create_event()
    assert acl.rt.stream_wait_event(s, ev) == 0
    runtime().launch_kernel(s, vector_launch(10))
    t0 = time.perf_counter()
    assert acl.rt.synchronize_stream(s) == 507046
    assert time.perf_counter() - t0 < 1.0
    msg = acl.get_recent_err_msg()
    assert msg.startswith("[507046 ACL_ERROR_RT_STREAM_SYNC_TIMEOUT]")
    assert f"stream {s}" in msg and "nobody records" in msg
    assert acl.rt.synchronize_device() == 507046
    # other streams still work
    assert acl.rt.synchronize_stream(0) == 0


def test_synchronize_event_never_recorded_is_a_no_op(npu):
    """aclrtSynchronizeEvent on an event with no record returns at once with success."""
    ev, _ = acl.rt.create_event()
    assert acl.rt.synchronize_event(ev) == 0


def test_destroy_stream_and_event(npu):
    """Destroying finishes the stream's work; the handle is then invalid (100000);
    the default stream cannot be destroyed."""
    s, _ = acl.rt.create_stream()
    runtime().launch_kernel(s, vector_launch(1000))
    assert acl.rt.destroy_stream(s) == 0
    assert runtime().device.kernel_records, "destroy ran the queued kernel"
    assert acl.rt.synchronize_stream(s) == 100000
    assert "does not exist" in acl.get_recent_err_msg()
    assert acl.rt.destroy_stream(s) == 100000
    assert acl.rt.destroy_stream(0) == 100000
    assert "default stream" in acl.get_recent_err_msg()
    assert acl.rt.record_event(1, 987654) == 100000
    ev, _ = acl.rt.create_event()
    assert acl.rt.destroy_event(ev) == 0
    assert acl.rt.destroy_event(ev) == 100000
    assert acl.rt.record_event(ev, 0) == 100000


# ---- the two clocks ----------------------------------------------------------------------------
def test_task_never_starts_before_host_enqueue(npu):
    """After the host has spent time on other calls, a copy enqueued on an idle device
    starts exactly at the host time of its enqueue, not earlier."""
    s, _ = acl.rt.create_stream()
    for _ in range(40):                     # 40 x 500 ns of host time, device idle
        acl.rt.create_event()
    dst = npu.malloc(4096)
    src = np.ones(1024, np.float32)
    assert runtime().device.env.now == 0.0  # the device clock has not moved
    assert acl.rt.memcpy_async(dst, 4096, acl.util.numpy_to_ptr(src), 4096, H2D, s) == 0
    enqueued = runtime().clock.now_ns
    assert runtime().device.env.now == 0.0  # still lazy: nothing ran yet
    assert acl.rt.synchronize_stream(s) == 0
    (copy,) = stream_spans(s, "MEMCPY H2D")
    assert copy.start_ns == enqueued
    assert runtime().clock.now_ns >= copy.start_ns + copy.dur_ns   # the host caught up at sync


def test_every_device_task_starts_after_its_host_launch(npu):
    """Over a mixed workload, each device task linked to a host call by a flow id starts
    no earlier than that host call ends."""
    sa, sb = _two_streams()
    buf = npu.malloc(4096)
    host = np.zeros(1024, np.float32)
    for i in range(5):
        runtime().launch_kernel(sa if i % 2 else sb, vector_launch(300 * (i + 1)))
        acl.rt.memcpy_async(buf, 4096, acl.util.numpy_to_ptr(host), 4096, H2D, sb if i % 2 else sa)
    assert acl.rt.synchronize_device() == 0
    spans = runtime().trace_data().spans   # host track (the profiler's) and device tracks
    host_end = {s.flow_id: s.start_ns + s.dur_ns for s in spans if s.flow_out}
    device = [s for s in spans if s.flow_id is not None and not s.flow_out]
    assert len(device) == 10 and set(s.flow_id for s in device) <= set(host_end)
    for s in device:
        assert s.start_ns >= host_end[s.flow_id]


def test_blocking_memcpy_advances_both_clocks(npu):
    """A blocking aclrtMemcpy runs the device to the copy's end and the host catches up."""
    dst = npu.malloc(1 << 16)
    src = np.ones(1 << 14, np.float32)
    assert acl.rt.memcpy(dst, 1 << 16, acl.util.numpy_to_ptr(src), 1 << 16, H2D) == 0
    chip = runtime().chip
    (copy,) = stream_spans(runtime().default_stream.stream_id, "MEMCPY H2D")
    # host link: latency + bytes / bandwidth (hardware/cost.py)
    assert copy.dur_ns == pytest.approx((1 << 16) / chip.host_link_bandwidth_bytes_per_ns + chip.host_link_latency_ns)
    assert runtime().device.env.now == pytest.approx(copy.start_ns + copy.dur_ns)
    assert runtime().clock.now_ns >= runtime().device.env.now
