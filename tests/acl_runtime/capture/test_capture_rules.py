"""Stream capture (acl.mdl.ri_*, CANN aclmdlRI*): tasks are recorded instead of run,
replay runs them for one host launch, and every capture rule returns its CANN status."""
from __future__ import annotations

import numpy as np

from acl_runtime import acl
from acl_runtime.host_clock import HOST_COST_NS
from acl_runtime.runtime import runtime

from ..conftest import fill_body, stream_spans, vector_launch

M = acl.mdl
H2D, D2H = acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST


def _stream():
    s, ret = acl.rt.create_stream()
    assert ret == 0
    return s


def _capture_fill(s, buf, n, value, kernels=1):
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    for _ in range(kernels):
        runtime().launch_kernel(s, vector_launch(100, fill_body(buf, n, value)))
    ri, ret = M.ri_capture_end(s)
    assert ret == 0, acl.get_recent_err_msg()
    return ri


def test_captured_tasks_do_not_run_until_replayed(npu):
    s = _stream()
    n = 64
    buf = npu.malloc(4 * n)
    ri = _capture_fill(s, buf, n, 5.0)
    assert acl.rt.synchronize_stream(s) == 0
    assert runtime().device.kernel_records == []
    assert (npu.to_host(buf, (n,), np.float32) == 0).all()
    assert M.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
    assert (npu.to_host(buf, (n,), np.float32) == 5.0).all()
    assert len(runtime().device.kernel_records) == 1
    assert M.ri_execute(ri) == 0 and len(runtime().device.kernel_records) == 2
    assert M.ri_destroy(ri) == 0


def test_replay_costs_one_launch_whatever_the_task_count(npu):
    s = _stream()
    buf = npu.malloc(256)
    ri = _capture_fill(s, buf, 64, 1.0, kernels=20)
    clock = runtime().context.clock
    before = clock.now_ns
    assert M.ri_execute_async(ri, s) == 0
    assert clock.now_ns - before == HOST_COST_NS["aclnn_launch"]
    assert acl.rt.synchronize_stream(s) == 0
    assert len(stream_spans(s, "Synthetic")) == 20


def test_get_info_and_debug_print(npu, capsys):
    s = _stream()
    assert M.ri_capture_get_info(s) == (M.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0, 0)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    status, ri, ret = M.ri_capture_get_info(s)
    assert ret == 0 and status == M.ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE and ri
    runtime().launch_kernel(s, vector_launch(10))
    assert M.ri_capture_end(s) == (ri, 0)
    assert M.ri_debug_print(ri) == 0
    assert "1 tasks" in capsys.readouterr().out


def test_forbidden_sync_memcpy_invalidates_the_capture(npu):
    s = _stream()
    buf = npu.malloc(64)
    host = np.ones(16, np.float32)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    ret = acl.rt.memcpy(buf, 64, acl.util.numpy_to_ptr(host), 64, H2D)
    assert ret == M.ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT == 107030
    msg = acl.get_recent_err_msg()
    assert "aclrtMemcpy" in msg and "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL" in msg
    assert M.ri_capture_get_info(s)[0] == M.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
    ri, ret = M.ri_capture_end(s)
    assert ret == M.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED and ri == 0
    assert (npu.to_host(buf, (16,), np.float32) == 0).all()   # never silently run


def test_relaxed_mode_runs_the_sync_copy(npu):
    s = _stream()
    buf = npu.malloc(64)
    host = np.ones(16, np.float32)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    assert acl.rt.memcpy(buf, 64, acl.util.numpy_to_ptr(host), 64, H2D) == 0
    assert M.ri_capture_end(s)[1] == 0
    assert (npu.to_host(buf, (16,), np.float32) == 1).all()


def test_async_copy_from_unpinned_host_memory_is_unsafe(npu):
    s = _stream()
    buf = npu.malloc(64)
    host = np.ones(16, np.float32)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL) == 0
    ret = acl.rt.memcpy_async(buf, 64, acl.util.numpy_to_ptr(host), 64, H2D, s)
    assert ret == 107030 and "aclrtMallocHost" in acl.get_recent_err_msg()
    assert M.ri_capture_end(s)[1] == 507903


def test_async_copy_from_pinned_memory_is_captured_and_reads_it_at_replay(npu):
    s = _stream()
    buf = npu.malloc(64)
    hptr, ret = acl.rt.malloc_host(64)
    assert ret == 0
    pinned = runtime().host_view(hptr, 64, writable=True).view(np.float32)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memcpy_async(buf, 64, hptr, 64, H2D, s) == 0
    ri, ret = M.ri_capture_end(s)
    assert ret == 0
    for v in (3.0, 4.0):
        pinned[...] = v
        assert M.ri_execute(ri) == 0
        assert (npu.to_host(buf, (16,), np.float32) == v).all()


def test_end_on_another_stream(npu):
    a, b = _stream(), _stream()
    assert M.ri_capture_begin(a, 0) == 0
    assert M.ri_capture_end(b) == (0, M.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
    assert "not capturing" in acl.get_recent_err_msg()
    ev, _ = acl.rt.create_event()
    assert acl.rt.record_event(ev, a) == 0
    assert acl.rt.stream_wait_event(b, ev) == 0       # b joins a's capture
    assert M.ri_capture_end(b) == (0, M.ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED)
    assert "begun on stream" in acl.get_recent_err_msg()
    assert M.ri_capture_end(a)[1] == 0


def test_begin_twice(npu):
    s = _stream()
    assert M.ri_capture_begin(s, 0) == 0
    assert M.ri_capture_begin(s, 0) == M.ACL_ERROR_RT_STREAM_CAPTURED
    assert "already capturing" in acl.get_recent_err_msg()
    assert M.ri_capture_end(s)[1] == 0


def test_bad_mode(npu):
    s = _stream()
    assert M.ri_capture_begin(s, 7) == acl.ACL_ERROR_INVALID_PARAM


def test_replay_of_a_destroyed_instance(npu):
    s = _stream()
    buf = npu.malloc(256)
    ri = _capture_fill(s, buf, 64, 1.0)
    assert M.ri_destroy(ri) == 0
    assert M.ri_execute_async(ri, s) == acl.ACL_ERROR_INVALID_PARAM
    assert "destroyed" in acl.get_recent_err_msg()
    assert M.ri_destroy(ri) == acl.ACL_ERROR_INVALID_PARAM
    assert runtime().device.kernel_records == []


def test_wait_on_an_event_recorded_outside_the_capture(npu):
    a, b = _stream(), _stream()
    ev, _ = acl.rt.create_event()
    assert acl.rt.record_event(ev, b) == 0
    assert M.ri_capture_begin(a, 0) == 0
    assert acl.rt.stream_wait_event(a, ev) == M.ACL_ERROR_RT_CAPTURE_DEPENDENCY
    assert "outside the capture" in acl.get_recent_err_msg()
    assert M.ri_capture_end(a) == (0, M.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)


def test_other_stream_drawn_in_through_events_is_replayed(npu):
    """Fork/join: b waits on an event recorded in a's capture, runs a kernel, and a
    waits for it; all of it is recorded and replays in order."""
    a, b = _stream(), _stream()
    n = 64
    x, y = npu.malloc(4 * n), npu.malloc(4 * n)
    fork, join = acl.rt.create_event()[0], acl.rt.create_event()[0]
    assert M.ri_capture_begin(a, 0) == 0
    runtime().launch_kernel(a, vector_launch(1000, fill_body(x, n, 1.0)))
    assert acl.rt.record_event(fork, a) == 0
    assert acl.rt.stream_wait_event(b, fork) == 0
    runtime().launch_kernel(b, vector_launch(100, fill_body(y, n, 2.0)))
    assert acl.rt.record_event(join, b) == 0
    assert acl.rt.stream_wait_event(a, join) == 0
    ri, ret = M.ri_capture_end(a)
    assert ret == 0, acl.get_recent_err_msg()
    assert M.ri_capture_get_info(b)[0] == M.ACL_MODEL_RI_CAPTURE_STATUS_NONE
    assert acl.rt.synchronize_device() == 0 and runtime().device.kernel_records == []
    assert M.ri_execute_async(ri, a) == 0 and acl.rt.synchronize_stream(a) == 0
    ka, kb = stream_spans(a, "Synthetic")[0], stream_spans(b, "Synthetic")[0]
    assert kb.start_ns >= ka.start_ns + ka.dur_ns
    assert (npu.to_host(y, (n,), np.float32) == 2.0).all()
