"""More capture rules, with their statuses: a replay on a stream that is capturing, a
replay or destroy of an instance still capturing, a get-info on a stream that only
updates a task group, and the arena counter's length check."""
from __future__ import annotations

from acl_runtime import acl
from acl_runtime.runtime import runtime

from ..conftest import vector_launch

M = acl.mdl


def _stream():
    s, ret = acl.rt.create_stream()
    assert ret == 0
    return s


def _captured(s, kernels=1):
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    for _ in range(kernels):
        runtime().launch_kernel(s, vector_launch(10))
    ri, ret = M.ri_capture_end(s)
    assert ret == 0, acl.get_recent_err_msg()
    return ri


def test_replay_on_a_capturing_stream(npu):
    a, b = _stream(), _stream()
    ri = _captured(a)
    assert M.ri_capture_begin(b, 0) == 0
    assert M.ri_execute_async(ri, b) == M.ACL_ERROR_RT_STREAM_CAPTURED
    assert "capturing stream" in acl.get_recent_err_msg()
    assert M.ri_capture_end(b)[1] == 0
    assert M.ri_execute_async(ri, b) == 0 and acl.rt.synchronize_stream(b) == 0


def test_replay_and_destroy_of_an_instance_still_capturing(npu):
    s = _stream()
    assert M.ri_capture_begin(s, 0) == 0
    _, ri, _ = M.ri_capture_get_info(s)
    assert M.ri_execute_async(ri, _stream()) == acl.ACL_ERROR_INVALID_PARAM
    assert "still capturing" in acl.get_recent_err_msg()
    assert M.ri_destroy(ri) == acl.ACL_ERROR_INVALID_PARAM
    assert M.ri_capture_end(s)[1] == 0


def test_an_updating_stream_is_not_capturing(npu):
    s, u = _stream(), _stream()
    assert M.ri_capture_begin(s, 0) == 0
    assert M.ri_capture_task_grp_begin(s) == 0
    runtime().launch_kernel(s, vector_launch(10))
    grp, ret = M.ri_capture_task_grp_end(s)
    ri, _ = M.ri_capture_end(s)
    assert M.ri_capture_task_update_begin(u, grp) == 0
    assert M.ri_capture_get_info(u) == (M.ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0, 0)
    assert M.ri_capture_end(u) == (0, M.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
    assert M.ri_capture_task_grp_begin(u) == M.ACL_ERROR_RT_STREAM_NOT_CAPTURED
    runtime().launch_kernel(u, vector_launch(20))
    assert M.ri_capture_task_update_end(u) == 0
    assert acl.rt.synchronize_device() == 0 and runtime().device.kernel_records == []   # recorded, not run
    assert M.ri_execute(ri) == 0 and len(runtime().device.kernel_records) == 1


def test_arena_use_needs_one_entry_per_kernel_and_one_after(npu):
    s = _stream()
    ri = _captured(s, kernels=3)
    assert M.ri_set_arena_use(ri, [1, 2, 3]) == acl.ACL_ERROR_INVALID_PARAM
    assert "give 4 byte counts" in acl.get_recent_err_msg()
    assert M.ri_set_arena_use(ri, [10, 20, 30, 0]) == 0
    assert M.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
    samples = [c for c in runtime().profiler.host.counters if c.track == M.ARENA_COUNTER[0]]
    assert [c.value for c in samples] == [10, 20, 30, 0]
    assert samples == sorted(samples, key=lambda c: c.ts_ns)
