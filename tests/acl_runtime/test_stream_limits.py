"""Stream and event limits and the event calls, through the pyACL-style binding.

Limits from the CANN AscendCL reference (acl_runtime/constants.py cites the pages):
1984 streams per device (default stream included) -> 207008; 65535 synchronizing
events per device -> 207007; ACL_EVENT_TIME_LINE-only events are not limited.
"""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime import constants as C

ELEMS = 256


@pytest.fixture
def dev():
    acl.init(chip="tiny")
    acl.rt.set_device(0)
    yield
    acl.finalize()


def _copy_on(stream) -> None:
    """Queue an async H2D copy on ``stream`` (some device time before later tasks)."""
    x = np.ones(ELEMS, np.float32)
    p, ret = acl.rt.malloc(x.nbytes, 0)
    assert ret == 0
    assert acl.rt.memcpy_async(p, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes,
                               C.ACL_MEMCPY_HOST_TO_DEVICE, stream) == 0


def test_stream_limit_returns_207008_and_frees_on_destroy(dev):
    made = []
    while True:
        s, ret = acl.rt.create_stream()
        if ret:
            break
        made.append(s)
    assert ret == C.ACL_ERROR_RT_NO_STREAM_RESOURCE == 207008
    assert len(made) + 1 == C.MAX_STREAMS_PER_DEVICE          # + the default stream
    assert "1984" in acl.get_recent_err_msg()
    assert acl.rt.destroy_stream(made.pop()) == 0
    s, ret = acl.rt.create_stream()
    assert ret == 0 and s


def test_event_limit_returns_207007_time_line_events_unlimited(dev, monkeypatch):
    monkeypatch.setattr(C, "MAX_EVENTS_PER_DEVICE", 50)     # the rule, at a size a test can reach
    events = [acl.rt.create_event()[0] for _ in range(50)]
    e, ret = acl.rt.create_event()
    assert ret == C.ACL_ERROR_RT_NO_EVENT_RESOURCE == 207007 and "50" in acl.get_recent_err_msg()
    _, ret = acl.rt.create_event_with_flag(C.ACL_EVENT_SYNC)
    assert ret == 207007
    for _ in range(5):                                        # timing-only events are not limited
        _, ret = acl.rt.create_event_with_flag(C.ACL_EVENT_TIME_LINE)
        assert ret == 0
    assert acl.rt.destroy_event(events[0]) == 0
    assert acl.rt.create_event()[1] == 0


@pytest.mark.parametrize("flag", [0x2, 0x10, -1])
def test_bad_event_flag(dev, flag):
    e, ret = acl.rt.create_event_with_flag(flag)
    assert ret == C.ACL_ERROR_INVALID_PARAM and "flag" in acl.get_recent_err_msg()


def test_query_timestamp_reset_and_rerecord(dev):
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_NOT_READY, 0)   # never recorded
    assert acl.rt.event_get_timestamp(e)[1] == C.ACL_ERROR_INVALID_PARAM
    _copy_on(s)
    assert acl.rt.record_event(e, s) == 0
    assert acl.rt.query_event_status(e)[0] == C.ACL_EVENT_RECORDED_STATUS_NOT_READY      # still queued
    assert acl.rt.synchronize_stream(s) == 0
    assert acl.rt.query_event_status(e) == (C.ACL_EVENT_RECORDED_STATUS_COMPLETE, 0)
    t1, ret = acl.rt.event_get_timestamp(e)
    assert ret == 0 and t1 >= 0
    assert acl.rt.reset_event(e, s) == 0
    assert acl.rt.query_event_status(e)[0] == C.ACL_EVENT_RECORDED_STATUS_NOT_READY
    _copy_on(s)
    assert acl.rt.record_event(e, s) == 0                     # re-record after reuse
    assert acl.rt.synchronize_event(e) == 0
    t2, ret = acl.rt.event_get_timestamp(e)
    assert ret == 0 and t2 > t1


def test_elapsed_time_needs_timing_and_completed_records(dev):
    s, _ = acl.rt.create_stream()
    a, _ = acl.rt.create_event()
    b, _ = acl.rt.create_event_with_flag(C.ACL_EVENT_TIME_LINE)
    sync_only, _ = acl.rt.create_event_with_flag(C.ACL_EVENT_SYNC)
    assert acl.rt.event_elapsed_time(a, b)[1] == C.ACL_ERROR_INVALID_PARAM   # nothing recorded yet
    acl.rt.record_event(a, s)
    _copy_on(s)
    acl.rt.record_event(b, s)
    acl.rt.record_event(sync_only, s)
    assert acl.rt.synchronize_stream(s) == 0
    ms, ret = acl.rt.event_elapsed_time(a, b)
    ta, tb = acl.rt.event_get_timestamp(a)[0], acl.rt.event_get_timestamp(b)[0]
    assert ret == 0 and ms > 0
    assert abs(ms * 1000 - (tb - ta)) <= 1.0                  # both from the device clock (us resolution)
    _, ret = acl.rt.event_elapsed_time(a, sync_only)
    assert ret == C.ACL_ERROR_INVALID_PARAM and "ACL_EVENT_SYNC" in acl.get_recent_err_msg()


def test_a_cycle_of_waits_is_reported_naming_streams_and_events(dev):
    """Stream A waits on e1 then records e2; stream B waits on e2 then records e1:
    neither record can ever run. The sync ends at once with 507046 and the cycle."""
    a, _ = acl.rt.create_stream()
    b, _ = acl.rt.create_stream()
    e1, _ = acl.rt.create_event()
    e2, _ = acl.rt.create_event()
    assert acl.rt.stream_wait_event(a, e1) == 0
    assert acl.rt.record_event(e2, a) == 0
    assert acl.rt.stream_wait_event(b, e2) == 0
    assert acl.rt.record_event(e1, b) == 0
    assert acl.rt.synchronize_stream(a) == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    msg = acl.get_recent_err_msg()
    assert "cycle of waits" in msg
    assert f"stream {a} (waits on event {e1})" in msg and f"stream {b} (waits on event {e2})" in msg


def test_a_wait_nobody_records_names_the_event(dev):
    a, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    assert acl.rt.stream_wait_event(a, e) == 0
    assert acl.rt.synchronize_device() == C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
    msg = acl.get_recent_err_msg()
    assert f"stream {a} waits on event {e}, which nobody records" in msg and "cycle" not in msg


def test_pythonic_event_query_timestamp_reset():
    from acl_runtime import InvalidParamError, Session
    with Session(chip="tiny", timing_only=True) as s:
        st = s.stream()
        e = s.event()
        assert e.query() is False
        with pytest.raises(InvalidParamError):
            _ = e.timestamp_us
        s.empty((ELEMS,), np.float32)
        e.record(st)
        st.synchronize()
        assert e.query() is True and e.timestamp_us >= 0
        e.reset(st)
        assert e.query() is False
