"""Streams and events: aclrtCreateStream/DestroyStream, aclrtCreateEvent(WithFlag)/
RecordEvent/ResetEvent/StreamWaitEvent/QueryEventStatus/EventGetTimestamp, the
synchronizing calls and aclrtEventElapsedTime.

Limits as CANN documents them (``constants.MAX_STREAMS_PER_DEVICE``,
``MAX_EVENTS_PER_DEVICE``): past them aclrtCreateStream returns 207008
(ACL_ERROR_RT_NO_STREAM_RESOURCE) and aclrtCreateEvent 207007
(ACL_ERROR_RT_NO_EVENT_RESOURCE). On hardware an event's resource is taken at its
first record and a record past the limit waits for one to be freed; the simulator
refuses at creation instead, so a program never hangs on it.

A synchronizing call lets the device run (``npu_sim.Device.run_until``) until what
it waits for is done, then the host clock catches up with the device clock; the
time the host waited is drawn on the host track. Stream handles are the device's
stream ids (0 or None = the default stream); numpy integers are accepted.
"""
from __future__ import annotations

from . import constants as C
from .errors import AclError, as_int


class Streams:
    """Streams and events of one ACL context. ``rt``: the
    :class:`acl_runtime.runtime.Runtime` (its context, profiler and launch queue)."""

    def __init__(self, rt) -> None:
        self.rt = rt
        self.ctx = rt.context
        self.profiler = rt.profiler
        self.event_flags: dict[int, int] = {}   #: event id -> aclrtCreateEventWithFlag flag (0 = aclrtCreateEvent)

    def _flush(self) -> None:
        self.rt.launcher.flush()

    # ---- handles ----------------------------------------------------------------------
    def stream(self, handle):
        """Resolve a stream handle (None or 0 = default stream; numpy ints accepted);
        AclError 100000 for one that does not exist."""
        dev = self.ctx.need_device()
        if handle is None:
            return self.ctx.default_stream
        handle = as_int(handle, "stream handle")
        if handle == 0:
            return self.ctx.default_stream
        s = dev.streams.get(handle)
        if s is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"stream {handle!r} does not exist (destroyed or never created)")
        return s

    def create_stream(self) -> int:
        """aclrtCreateStream. AclError 207008 once the device holds
        ``MAX_STREAMS_PER_DEVICE`` streams (the default stream counts)."""
        dev = self.ctx.need_device()
        if len(dev.streams) >= C.MAX_STREAMS_PER_DEVICE:
            raise AclError(C.ACL_ERROR_RT_NO_STREAM_RESOURCE,
                           f"stream resources insufficient: the device already has {len(dev.streams)} streams (the "
                           f"default one included) and allows {C.MAX_STREAMS_PER_DEVICE} (CANN aclrtCreateStream, "
                           "Atlas A2); destroy streams you no longer use")
        self.profiler.host_span("create_stream")
        return dev.create_stream().stream_id

    def destroy_stream(self, handle) -> None:
        """aclrtDestroyStream: finishes the stream's work first; the default stream
        cannot be destroyed (100000)."""
        s = self.stream(handle)
        if s is self.ctx.default_stream:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, "the default stream cannot be destroyed")
        self._flush()
        self.wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        del self.ctx.device.streams[s.stream_id]

    def event(self, handle):
        """Resolve an event handle; AclError 100000 for one that does not exist."""
        dev = self.ctx.need_device()
        e = dev.events.get(as_int(handle, "event handle"))
        if e is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"event {handle!r} does not exist")
        return e

    def create_event(self, flag: int = 0) -> int:
        """aclrtCreateEvent (``flag`` 0) or aclrtCreateEventWithFlag: ``flag`` a mix of
        ACL_EVENT_SYNC and ACL_EVENT_TIME_LINE (AclError 100000 otherwise). Events
        that can synchronize (all but TIME_LINE-only ones) count against
        ``MAX_EVENTS_PER_DEVICE`` (AclError 207007 past it)."""
        dev = self.ctx.need_device()
        flag = as_int(flag, "event flag")
        if flag & ~(C.ACL_EVENT_SYNC | C.ACL_EVENT_TIME_LINE) or flag < 0:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"event flag must combine ACL_EVENT_SYNC (0x1) and "
                                                      f"ACL_EVENT_TIME_LINE (0x8), got {flag:#x}")
        if flag != C.ACL_EVENT_TIME_LINE:
            n = sum(1 for f in self.event_flags.values() if f != C.ACL_EVENT_TIME_LINE)
            if n >= C.MAX_EVENTS_PER_DEVICE:
                raise AclError(C.ACL_ERROR_RT_NO_EVENT_RESOURCE,
                               f"event resources insufficient: {n} events exist and the device allows "
                               f"{C.MAX_EVENTS_PER_DEVICE} (CANN aclrtCreateEvent, Atlas A2); destroy events you no "
                               "longer use, or create timing-only events with ACL_EVENT_TIME_LINE")
        self.profiler.host_span("create_event")
        eid = dev.create_event().event_id
        self.event_flags[eid] = flag
        return eid

    def destroy_event(self, handle) -> None:
        e = self.event(handle)
        del self.ctx.device.events[e.event_id]
        self.event_flags.pop(e.event_id, None)

    def _can_time(self, e) -> bool:
        return self.event_flags.get(e.event_id, 0) in (0, C.ACL_EVENT_TIME_LINE,
                                                       C.ACL_EVENT_TIME_LINE | C.ACL_EVENT_SYNC)

    def reset_event(self, event, stream) -> None:
        """aclrtResetEvent: the event's records are forgotten once ``stream``'s earlier
        work is done (a query then says NOT_READY until the next record completes)."""
        e, s = self.event(event), self.stream(stream)
        self._flush()
        self.profiler.host_span("record_event", "aclrtResetEvent")
        self.wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
        e.records.clear()
        e.timestamp_ns = None

    def query_event_status(self, event) -> int:
        """aclrtQueryEventStatus: ACL_EVENT_RECORDED_STATUS_COMPLETE once the event's
        latest record has run on the device clock, else NOT_READY (never recorded,
        or still queued). Does not advance the device."""
        e = self.event(event)
        done = bool(e.records) and e.records[-1].processed
        return C.ACL_EVENT_RECORDED_STATUS_COMPLETE if done else C.ACL_EVENT_RECORDED_STATUS_NOT_READY

    def event_timestamp_us(self, event) -> int:
        """aclrtEventGetTimestamp: when the event's latest record completed, in us
        since the device was set (the simulated device clock). AclError 100000 if it
        has not completed a record (synchronize first)."""
        e = self.event(event)
        if not e.records or not e.records[-1].processed or e.timestamp_ns is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"event {e.event_id} has not completed a record: record it "
                                                      "and synchronize first")
        return int(e.timestamp_ns // 1000)

    def record_event(self, event, stream) -> None:
        e, s = self.event(event), self.stream(stream)
        self._flush()
        t, _ = self.profiler.host_span("record_event", "aclrtRecordEvent")
        self.ctx.device.submit_record(s, e, t)

    def stream_wait_event(self, stream, event) -> None:
        e, s = self.event(event), self.stream(stream)
        self._flush()
        t, _ = self.profiler.host_span("stream_wait_event", "aclrtStreamWaitEvent")
        self.ctx.device.submit_wait(s, e, t)

    # ---- waiting ----------------------------------------------------------------------
    def wait(self, ev, stream, timeout_code: int, progress=None) -> None:
        """Run the device until SimPy event ``ev`` has happened (None: return at once),
        then move the host clock up to the device clock, drawing the wait. Raises
        AclError ``timeout_code`` if it never can (a deadlock), and the first errors
        of ``stream``'s tasks (507899 for a bad memory access, else 507015)."""
        ctx = self.ctx
        dev = ctx.device
        if ev is None:
            return
        self._flush()
        ok = dev.run_until(ev, progress)
        self.profiler.device_ran()
        clock = ctx.clock
        before = clock.now_ns
        clock.catch_up(dev.env.now)
        if clock.now_ns > before:
            # the host blocked: draw the wait, as msprof's host track does for a blocking call
            self.profiler.blocked(before, clock.now_ns)
        if not ok:
            stuck = ", ".join(f"stream {s.stream_id}" for s in dev.blocked_streams())
            raise AclError(timeout_code, f"synchronize would wait forever: {stuck} wait on an event that "
                                         "nobody records (aclrtStreamWaitEvent with no matching aclrtRecordEvent)")
        if stream is not None and stream.errors:
            errs, stream.errors = stream.errors, []
            code = C.ACL_ERROR_RT_MEMORY_ACCESS if any("access" in e or "alloc" in e for e in errs) \
                else C.ACL_ERROR_RT_AICORE_EXCEPTION
            raise AclError(code, "; ".join(errs))

    def synchronize_stream(self, stream, progress=None) -> None:
        """Run the device until ``stream`` is idle. ``progress(kernels_done)``, if
        given, is called now and then while the simulation runs (for progress bars)."""
        s = self.stream(stream)
        self._flush()
        self.profiler.host_span("synchronize", "aclrtSynchronizeStream")
        self.wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, progress)

    def synchronize_device(self) -> None:
        dev = self.ctx.need_device()
        self._flush()
        self.profiler.host_span("synchronize", "aclrtSynchronizeDevice")
        for s in list(dev.streams.values()):
            self.wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)

    def synchronize_event(self, event) -> None:
        e = self.event(event)
        self._flush()
        self.profiler.host_span("synchronize", "aclrtSynchronizeEvent")
        if e.records:
            self.wait(e.records[-1], None, C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT)

    def event_elapsed_time(self, start, end) -> float:
        """aclrtEventElapsedTime: ms between two completed records (100000 if either has
        not completed one, or was created with ACL_EVENT_SYNC alone, which this
        simulator treats as an event without timing [A])."""
        a, b = self.event(start), self.event(end)
        for name, e in (("start", a), ("end", b)):
            if not self._can_time(e):
                raise AclError(C.ACL_ERROR_INVALID_PARAM, f"{name} event {e.event_id} was created with ACL_EVENT_SYNC "
                                                          "only and has no timing: add ACL_EVENT_TIME_LINE")
            if not e.records or not e.records[-1].processed:
                raise AclError(C.ACL_ERROR_INVALID_PARAM,
                               f"{name} event {e.event_id} has not completed a record: record it and synchronize first")
        return (b.timestamp_ns - a.timestamp_ns) / 1e6
