"""aclrtMemset / aclrtMemsetAsync (acl.rt.memset, acl.rt.memset_async, Session.memset):
the bytes, the statuses, the MEMSET device task and its time, and the capture rules."""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import Session, acl
from acl_runtime.errors import AclRuntimeError
from acl_runtime.runtime import runtime
from npu_sim.hardware.cost import memset_ns

from .conftest import stream_spans

M = acl.mdl


def _stream():
    s, ret = acl.rt.create_stream()
    assert ret == 0
    return s


def test_memset_sets_each_byte_and_is_a_timed_device_task(npu):
    buf = npu.malloc(256)
    assert acl.rt.memset(buf, 256, 0x3F, 200) == 0
    got = npu.to_host(buf, (256,), np.uint8)
    assert (got[:200] == 0x3F).all() and (got[200:] == 0).all()
    assert acl.rt.memset(buf, 256, 0x1AB, 4) == 0          # the low byte of value, as C memset
    assert (npu.to_host(buf, (4,), np.uint8) == 0xAB).all()
    spans = stream_spans(runtime().context.default_stream.stream_id, "MEMSET")
    assert len(spans) == 2 and spans[0].args["task_type"] == "MEMSET"
    chip = runtime().device.chip
    assert spans[0].dur_ns == pytest.approx(memset_ns(chip, 200))
    assert memset_ns(chip, 1 << 20) < 2 * memset_ns(chip, 1 << 20) - chip.dma_latency_ns   # writes only


def test_memset_async_runs_on_its_stream(npu):
    s = _stream()
    buf = npu.malloc(64)
    assert acl.rt.memset_async(buf, 64, 7, 64, s) == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert (npu.to_host(buf, (64,), np.uint8) == 7).all()
    assert len(stream_spans(s, "MEMSET")) == 1


def test_memset_statuses(npu):
    buf = npu.malloc(64)
    assert acl.rt.memset(buf, 32, 0, 64) == 100000
    assert "exceeds max_count" in acl.get_recent_err_msg()
    assert acl.rt.memset(buf, 64, 0, -1) == 100000
    assert acl.rt.memset(buf + 4096 * 1024, 64, 0, 8) == 100000    # no allocation there
    assert acl.rt.memset_async(buf, 64, 0, 8, 12345) == 100000       # no such stream
    assert acl.rt.memset(buf, 64, 0, 0) == 0


def test_memset_of_host_memory(npu):
    host = np.zeros(16, np.uint8)
    assert acl.rt.memset(acl.util.numpy_to_ptr(host), 16, 9, 10) == 0
    assert (host[:10] == 9).all() and (host[10:] == 0).all()


def test_sync_memset_inside_a_capture_is_forbidden_and_invalidates_it(npu):
    s = _stream()
    buf = npu.malloc(64)
    for mode, name in ((M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, "GLOBAL"),
                       (M.ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, "THREAD_LOCAL")):
        assert M.ri_capture_begin(s, mode) == 0
        assert acl.rt.memset(buf, 64, 1, 64) == 107030
        msg = acl.get_recent_err_msg()
        assert "aclrtMemset" in msg and f"ACL_MODEL_RI_CAPTURE_MODE_{name}" in msg
        assert M.ri_capture_get_info(s)[0] == M.ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
        assert M.ri_capture_end(s) == (0, 507903)
        assert (npu.to_host(buf, (64,), np.uint8) == 0).all()    # never silently run


def test_sync_memset_runs_eagerly_in_relaxed_mode(npu):
    s = _stream()
    buf = npu.malloc(64)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_RELAXED) == 0
    assert acl.rt.memset(buf, 64, 2, 64) == 0
    assert M.ri_capture_end(s)[1] == 0
    assert (npu.to_host(buf, (64,), np.uint8) == 2).all()


def test_memset_async_on_the_capturing_stream_is_captured(npu):
    s = _stream()
    buf = npu.malloc(64)
    assert M.ri_capture_begin(s, M.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
    assert acl.rt.memset_async(buf, 64, 5, 64, s) == 0
    ri, ret = M.ri_capture_end(s)
    assert ret == 0
    assert acl.rt.synchronize_stream(s) == 0
    assert (npu.to_host(buf, (64,), np.uint8) == 0).all()       # captured, not run
    assert [t.kind for t in runtime().streams.capture_manager.model(ri).tasks] == ["memset"]
    for _ in range(2):
        assert acl.rt.memset(buf, 64, 0, 64) == 0
        assert M.ri_execute_async(ri, s) == 0 and acl.rt.synchronize_stream(s) == 0
        assert (npu.to_host(buf, (64,), np.uint8) == 5).all()
    assert len(stream_spans(s, "MEMSET")) == 2


def test_device_array_memset(clean):
    with Session(chip="tiny") as sess:
        a = sess.to_device(np.arange(8, dtype=np.float32))
        a.memset(0)
        assert (a.numpy() == 0).all()
        st = sess.stream()
        a.memset(0xFF, nbytes=4, stream=st)
        st.synchronize()
        assert np.isnan(a.numpy()[0]) and (a.numpy()[1:] == 0).all()
        with pytest.raises(AclRuntimeError):
            a.memset(0, nbytes=64)
