"""Task groups of a capture (CANN 8.x aclmdlRICaptureTaskGrpBegin/End,
aclmdlRICaptureTaskUpdateBegin/End; acl.mdl.ri_capture_task_*): an update gives a
replay new tensor addresses and new scalars without a recapture, and every rule of
the four calls returns its status."""
from __future__ import annotations

import numpy as np

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime

from ..conftest import vector_launch

M = acl.mdl
GLOBAL = M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL


def _stream():
    s, ret = acl.rt.create_stream()
    assert ret == 0
    return s


def _muls(npu, x, k: float, out, s) -> None:
    """out = x * k through both aclnn phases (a fresh executor each time)."""
    scalar = opsnn.aclCreateScalar(k, opsnn.aclDataType.ACL_FLOAT)
    ws, ex, ret = opsnn.aclnnMulsGetWorkspaceSize(x, scalar, out)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnMuls(npu.malloc(ws) if ws else 0, ws, ex, s) == 0, opsnn.aclGetRecentErrMsg()


def _captured_group(npu, s, x, out, k):
    assert M.ri_capture_begin(s, GLOBAL) == 0
    assert M.ri_capture_task_grp_begin(s) == 0
    _muls(npu, x, k, out, s)
    grp, ret = M.ri_capture_task_grp_end(s)
    assert ret == 0 and grp, acl.get_recent_err_msg()
    ri, ret = M.ri_capture_end(s)
    assert ret == 0, acl.get_recent_err_msg()
    return ri, grp


def _grouped(npu, rng):
    """Two streams, x (16 float32) and out on the device, a capture on the first of one
    group out = x * 2: (s, u, x, out, model_ri, group)."""
    s, u = _stream(), _stream()
    _, x = npu.to_device(rng.standard_normal(16).astype(np.float32))
    _, out = npu.empty((16,), np.float32)
    ri, grp = _captured_group(npu, s, x, out, 2.0)
    return s, u, x, out, ri, grp


def test_update_gives_new_addresses_and_scalars_without_recapture(npu, rng):
    s, u = _stream(), _stream()
    a = rng.standard_normal(64).astype(np.float32)
    b = rng.standard_normal(64).astype(np.float32)
    _, xa = npu.to_device(a)
    _, xb = npu.to_device(b)
    po1, out1 = npu.empty((64,), np.float32)
    po2, out2 = npu.empty((64,), np.float32)
    ri, grp = _captured_group(npu, s, xa, out1, 2.0)
    assert M.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
    np.testing.assert_allclose(npu.to_host(po1, (64,), np.float32), a * 2, rtol=1e-6)
    tasks = M.ri_task_count(ri)
    # new input and output addresses and a new scalar: recorded on stream u, not run
    assert M.ri_capture_task_update_begin(u, grp) == 0
    _muls(npu, xb, -3.0, out2, u)
    assert M.ri_capture_task_update_end(u) == 0
    assert acl.rt.synchronize_stream(u) == 0
    assert (npu.to_host(po2, (64,), np.float32) == 0).all()
    assert M.ri_task_count(ri) == tasks
    for _ in range(3):
        assert M.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
        np.testing.assert_allclose(npu.to_host(po2, (64,), np.float32), b * -3, rtol=1e-6)
    assert M.ri_destroy(ri) == 0


def test_group_begin_outside_a_capture(npu):
    s = _stream()
    assert M.ri_capture_task_grp_begin(s) == M.ACL_ERROR_RT_STREAM_NOT_CAPTURED
    grp, ret = M.ri_capture_task_grp_end(s)
    assert (grp, ret) == (0, M.ACL_ERROR_RT_STREAM_NOT_CAPTURED)
    assert "not capturing" in acl.get_recent_err_msg()


def test_groups_do_not_nest_and_end_needs_an_open_group(npu):
    s = _stream()
    assert M.ri_capture_begin(s, GLOBAL) == 0
    assert M.ri_capture_task_grp_end(s)[1] == M.ACL_ERROR_RT_PARAM_INVALID
    assert M.ri_capture_task_grp_begin(s) == 0
    assert M.ri_capture_task_grp_begin(s) == M.ACL_ERROR_RT_PARAM_INVALID
    assert "do not nest" in acl.get_recent_err_msg()
    assert M.ri_capture_task_grp_end(s)[1] == 0
    assert M.ri_capture_end(s)[1] == 0


def test_capture_ended_with_an_open_group_is_invalidated(npu):
    s = _stream()
    assert M.ri_capture_begin(s, GLOBAL) == 0
    assert M.ri_capture_task_grp_begin(s) == 0
    runtime().launch_kernel(s, vector_launch(10))
    ri, ret = M.ri_capture_end(s)
    assert (ri, ret) == (0, M.ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED)
    assert "aclmdlRICaptureTaskGrpEnd" in acl.get_recent_err_msg()


def test_only_operator_launches_inside_a_group(npu):
    s = _stream()
    ev, _ = acl.rt.create_event()
    assert M.ri_capture_begin(s, GLOBAL) == 0
    assert M.ri_capture_task_grp_begin(s) == 0
    assert acl.rt.record_event(ev, s) == M.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
    assert "only single-operator launches" in acl.get_recent_err_msg()
    assert M.ri_capture_task_grp_end(s)[1] == 0
    assert M.ri_capture_end(s)[1] == 0


def test_update_on_a_capturing_stream(npu, rng):
    s, u, x, out, ri, grp = _grouped(npu, rng)
    assert M.ri_capture_begin(u, GLOBAL) == 0
    assert M.ri_capture_task_update_begin(u, grp) == M.ACL_ERROR_RT_STREAM_CAPTURED
    assert "not capturing" in acl.get_recent_err_msg()
    assert M.ri_capture_end(u)[1] == 0


def test_update_of_a_destroyed_model_and_of_an_unknown_group(npu, rng):
    s, u, x, out, ri, grp = _grouped(npu, rng)
    assert M.ri_destroy(ri) == 0
    assert M.ri_capture_task_update_begin(u, grp) == acl.ACL_ERROR_INVALID_PARAM
    assert M.ri_capture_task_update_begin(u, 12345) == acl.ACL_ERROR_INVALID_PARAM
    assert "does not exist" in acl.get_recent_err_msg()


def test_model_destroyed_during_the_update(npu, rng):
    s, u, x, out, ri, grp = _grouped(npu, rng)
    assert M.ri_capture_task_update_begin(u, grp) == 0
    _muls(npu, x, 5.0, out, u)
    assert M.ri_destroy(ri) == 0
    assert M.ri_capture_task_update_end(u) == acl.ACL_ERROR_INVALID_PARAM


def test_update_end_without_begin_and_twice_begun(npu, rng):
    assert M.ri_capture_task_update_end(_stream()) == M.ACL_ERROR_RT_PARAM_INVALID
    s, u, x, out, ri, grp = _grouped(npu, rng)
    assert M.ri_capture_task_update_begin(u, grp) == 0
    assert M.ri_capture_task_update_begin(u, grp) == M.ACL_ERROR_RT_PARAM_INVALID
    _muls(npu, x, 5.0, out, u)
    assert M.ri_capture_task_update_end(u) == 0


def test_update_with_another_task_count_leaves_the_group_unchanged(npu, rng):
    s, u = _stream(), _stream()
    a = rng.standard_normal(16).astype(np.float32)
    pa, x = npu.to_device(a)
    po, out = npu.empty((16,), np.float32)
    ri, grp = _captured_group(npu, s, x, out, 2.0)
    assert M.ri_capture_task_update_begin(u, grp) == 0
    _muls(npu, x, 5.0, out, u)
    _muls(npu, x, 7.0, out, u)
    assert M.ri_capture_task_update_end(u) == M.ACL_ERROR_RT_PARAM_INVALID
    assert "count and types must match" in acl.get_recent_err_msg()
    assert M.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
    np.testing.assert_allclose(npu.to_host(po, (16,), np.float32), a * 2, rtol=1e-6)
    # an update stream is free again after a failed end; a copy there is not a group task
    assert M.ri_capture_task_update_begin(u, grp) == 0
    assert acl.rt.memcpy_async(po, 64, pa, 64, acl.ACL_MEMCPY_DEVICE_TO_DEVICE, u) == \
        M.ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
    _muls(npu, x, 5.0, out, u)
    assert M.ri_capture_task_update_end(u) == 0
