"""The event rules the stream/event tests did not cover yet (issue 13's checklist:
record, wait, synchronize, query, reset, elapsed time only between two recorded and
completed timing events, re-record after reuse, timestamp). Each check reads the
device clock (spans and timestamps), never wall time."""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime import constants as C
from acl_runtime.runtime import runtime

from .conftest import stream_spans
from .test_stream_limits import dev  # noqa: F401  (a fixture: aclInit + device 0 on tiny)

BIG = 1 << 20   # a 1 MiB upload: microseconds on tiny's host link


def _copy_on(stream, nbytes: int = BIG) -> None:
    x = np.ones(nbytes // 4, np.float32)
    p, ret = acl.rt.malloc(x.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy_async(p, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes,
                               C.ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0


def test_elapsed_time_refuses_a_record_still_queued_and_a_reset_event(dev):
    s, _ = acl.rt.create_stream()
    a, _ = acl.rt.create_event()
    b, _ = acl.rt.create_event()
    acl.rt.record_event(a, s)
    _copy_on(s)
    acl.rt.record_event(b, s)
    assert acl.rt.synchronize_event(a) == 0              # a has completed, b is still queued
    assert acl.rt.query_event_status(b)[0] == C.ACL_EVENT_RECORDED_STATUS_NOT_READY
    _, ret = acl.rt.event_elapsed_time(a, b)
    assert ret == C.ACL_ERROR_INVALID_PARAM and "has not completed a record" in acl.get_recent_err_msg()
    assert acl.rt.synchronize_stream(s) == 0
    ms, ret = acl.rt.event_elapsed_time(a, b)
    assert ret == 0 and ms > 0
    assert acl.rt.reset_event(b, s) == 0                  # reset forgets b's record
    assert acl.rt.event_elapsed_time(a, b)[1] == C.ACL_ERROR_INVALID_PARAM


def test_synchronize_event_waits_for_that_record_only(dev):
    """The device runs up to the event's record, not past later work on its stream."""
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    later, _ = acl.rt.create_event()
    _copy_on(s)
    acl.rt.record_event(e, s)
    _copy_on(s)
    acl.rt.record_event(later, s)
    assert acl.rt.synchronize_event(e) == 0
    assert acl.rt.query_event_status(e)[0] == C.ACL_EVENT_RECORDED_STATUS_COMPLETE
    assert acl.rt.query_event_status(later)[0] == C.ACL_EVENT_RECORDED_STATUS_NOT_READY
    assert runtime().device.env.now == pytest.approx(acl.rt.event_get_timestamp(e)[0] * 1000, abs=1000)


def test_timestamp_is_the_device_time_of_the_record(dev):
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    _copy_on(s)
    acl.rt.record_event(e, s)
    assert acl.rt.synchronize_stream(s) == 0
    (rec,) = stream_spans(runtime().device.streams[s].stream_id, "EVENT_RECORD")
    (copy,) = stream_spans(s, "MEMCPY H2D")
    us, ret = acl.rt.event_get_timestamp(e)
    assert ret == 0 and us == int(rec.start_ns // 1000)
    assert rec.start_ns >= copy.start_ns + copy.dur_ns       # the record ran after the work before it


def test_a_wait_after_a_re_record_binds_to_the_new_record(dev):
    """Event reuse: e recorded on A (completed), more work on A, e recorded again; a wait
    issued now on B binds to the second record, so B's copy starts after A's second copy."""
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    acl.rt.record_event(e, a)
    assert acl.rt.synchronize_stream(a) == 0
    _copy_on(a)
    acl.rt.record_event(e, a)                                 # re-record after reuse
    assert acl.rt.stream_wait_event(b, e) == 0
    _copy_on(b, 4096)
    assert acl.rt.synchronize_device() == 0
    (a_copy,) = stream_spans(a, "MEMCPY H2D")
    (b_copy,) = stream_spans(b, "MEMCPY H2D")
    assert b_copy.start_ns >= a_copy.start_ns + a_copy.dur_ns


def test_a_wait_on_a_completed_record_does_not_block(dev):
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    acl.rt.record_event(e, a)
    assert acl.rt.synchronize_stream(a) == 0
    t = runtime().device.env.now
    assert acl.rt.stream_wait_event(b, e) == 0
    _copy_on(b, 4096)
    assert acl.rt.synchronize_stream(b) == 0
    (wait,) = stream_spans(b, "STREAM_WAIT_EVENT")
    assert wait.dur_ns == 0 and wait.start_ns >= t
