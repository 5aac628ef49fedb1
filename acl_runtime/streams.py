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

(Over 300 lines on purpose: the stream, event and synchronizing calls share the
per-device record and wait logs that the deadlock report reads; split, each half
would reach into the other's state.)
"""
from __future__ import annotations

from . import constants as C
from .capture import manager as _capture
from .errors import AclError, as_int
from .interrupt import run_until
from .sanitizer import SANITIZER

#: aclrtCreateStreamWithConfig's priority range: 0 is the highest, 7 the lowest
STREAM_PRIORITY_HIGHEST = 0
STREAM_PRIORITY_LOWEST = 7


class Streams:
    """Streams and events of one ACL context. ``rt``: the
    :class:`acl_runtime.runtime.Runtime` (its context, profiler and launch queue)."""

    def __init__(self, rt) -> None:
        self.rt = rt
        self.ctx = rt.context
        self.profiler = rt.profiler
        self.capturing: dict = {}   # stream id -> capture.ModelRI between aclmdlRICaptureBegin and End
        self._for_device = None
        self._new_device_state(None)

    def _new_device_state(self, dev) -> None:
        """Per-device bookkeeping, started afresh whenever the device object changes
        (aclrtSetDevice after a reset, aclInit after aclFinalize)."""
        self._for_device = dev
        self.event_flags: dict[int, int] = {}   #: event id -> aclrtCreateEventWithFlag flag (0 = aclrtCreateEvent)
        #: event id -> [(stream id, SimPy event of the record)], in submission order
        self.record_log: dict[int, list] = {}
        #: unfinished waits: (stream id, event id, index into record_log[event id] it binds to)
        self.wait_log: list[tuple[int, int, int]] = []

    def _dev(self):
        """The current device (AclError without one), with this object's bookkeeping for it."""
        dev = self.ctx.need_device()
        if dev is not self._for_device:
            self._new_device_state(dev)
        return dev

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

    def captured_streams(self) -> int:
        """Streams the device's live model run instances hold: one per stream in each
        capture, from aclmdlRICaptureBegin until aclmdlRIDestroy [A]. CANN's
        aclmdlRICaptureBegin reference warns that captured tasks keep streams in capture
        state and use up the stream resources whose limit aclrtCreateStream documents
        (hiascend.com, CANN 8.5 runtime API, aclcppdevg_03_1849)."""
        m = self.__dict__.get("capture_manager")
        if m is None:
            return 0
        dev = self.ctx.device
        return sum(len(ri.streams) for ri in m.models.values() if ri.device is dev and not ri.destroyed)

    def check_stream_budget(self, call: str) -> None:
        """AclError 207008 (stream resources insufficient) naming ``call`` when one more
        stream, or one more captured graph holding one, would pass the device's budget:
        its streams (the default one included) plus :meth:`captured_streams` reach
        ``MAX_STREAMS_PER_DEVICE``."""
        dev = self.ctx.need_device()
        held = self.captured_streams()
        if len(dev.streams) + held >= C.MAX_STREAMS_PER_DEVICE:
            raise AclError(C.ACL_ERROR_RT_NO_STREAM_RESOURCE,
                           f"{call}: stream resources insufficient: the device already has {len(dev.streams)} streams "
                           f"(the default one included)" + (f" and captured graphs hold {held} more (aclmdlRIDestroy "
                                                            "frees them)" if held else "") +
                           f"; it allows {C.MAX_STREAMS_PER_DEVICE} (CANN aclrtCreateStream, Atlas A2); destroy "
                           "streams or captured graphs you no longer use")

    def create_stream(self, priority: int = 0, flag: int = 0) -> int:
        """aclrtCreateStream, or aclrtCreateStreamWithConfig(priority, flag). AclError
        207008 once the device's streams (the default one included) plus the streams
        held by captured graphs (:meth:`captured_streams`) reach ``MAX_STREAMS_PER_DEVICE``.

        ``priority``: 0 is the highest and 7 the lowest; a value outside [0, 7] is
        clamped to the nearer bound (CANN aclrtCreateStreamWithConfig, hiascend.com
        CANN community edition runtime API aclcppdevg_03_0069). The core scheduler
        honours it on every chip (npu_sim/hardware/cores.py); the CANN 9.0 commercial
        reference marks it reserved (fixed 0) on Atlas A2/A3, so there it is a what-if.
        ``flag`` (ACL_STREAM_FAST_LAUNCH 0x1, FAST_SYNC 0x2, ...) changes no simulated
        time; any value is accepted, as CANN treats unknown flags as a plain stream.
        AclError 100000 for a non-integer priority or flag."""
        dev = self.ctx.need_device()
        priority = min(max(as_int(priority, "stream priority"), STREAM_PRIORITY_HIGHEST), STREAM_PRIORITY_LOWEST)
        as_int(flag, "stream flag")
        self.check_stream_budget("aclrtCreateStream")
        self.profiler.host_span("create_stream")
        return dev.create_stream(priority).stream_id

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
        dev = self._dev()
        e = dev.events.get(as_int(handle, "event handle"))
        if e is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"event {handle!r} does not exist")
        return e

    def create_event(self, flag: int = 0) -> int:
        """aclrtCreateEvent (``flag`` 0) or aclrtCreateEventWithFlag: ``flag`` a mix of
        ACL_EVENT_SYNC and ACL_EVENT_TIME_LINE (AclError 100000 otherwise). Events
        that can synchronize (all but TIME_LINE-only ones) count against
        ``MAX_EVENTS_PER_DEVICE`` (AclError 207007 past it)."""
        dev = self._dev()
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
        self.record_log.pop(e.event_id, None)
        self.wait_log = [w for w in self.wait_log if w[1] != e.event_id]

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
        if self.capturing and _capture(self.rt).record(s, e):
            return
        fired = self.ctx.device.submit_record(s, e, t)
        self.record_log.setdefault(e.event_id, []).append((s.stream_id, fired))
        SANITIZER.record(e.event_id, s.stream_id)

    def stream_wait_event(self, stream, event) -> None:
        e, s = self.event(event), self.stream(stream)
        self._flush()
        t, _ = self.profiler.host_span("stream_wait_event", "aclrtStreamWaitEvent")
        if self.capturing and _capture(self.rt).wait(s, e):
            return
        # the device binds the wait to the latest record, or to the next one if none
        n = len(self.record_log.get(e.event_id, ()))
        self.wait_log.append((s.stream_id, e.event_id, n - 1 if e.records else n))
        self.ctx.device.submit_wait(s, e, t)
        SANITIZER.wait(s.stream_id, e.event_id)

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
        ok = run_until(dev, ev, progress, self._flush)   # Ctrl-C lands between steps (acl_runtime.interrupt)
        self.profiler.device_ran()
        clock = ctx.clock
        before = clock.now_ns
        clock.catch_up(dev.env.now)
        if clock.now_ns > before:
            # the host blocked: draw the wait, as msprof's host track does for a blocking call
            self.profiler.blocked(before, clock.now_ns)
        if not ok:
            raise AclError(timeout_code, "synchronize would wait forever: " + self._deadlock_report())
        self._prune_waits()
        if stream is not None and stream.errors:
            errs, stream.errors = stream.errors, []
            code = C.ACL_ERROR_RT_MEMORY_ACCESS if any("access" in e or "alloc" in e for e in errs) \
                else C.ACL_ERROR_RT_AICORE_EXCEPTION
            raise AclError(code, "; ".join(errs))

    def _binding(self, w):
        """The (stream id, SimPy record) a logged wait binds to, or None if not yet recorded."""
        recs = self.record_log.get(w[1], ())
        return recs[w[2]] if 0 <= w[2] < len(recs) else None

    def _prune_waits(self) -> None:
        """Drop waits whose record has run (the log keeps only what can still block)."""
        if self.wait_log:
            self.wait_log = [w for w in self.wait_log if not ((b := self._binding(w)) and b[1].processed)]

    def _deadlock_report(self) -> str:
        """Why the device ran dry: each stuck stream's first unsatisfied wait, the
        stream its record is queued on (if any), and the cycle of waits when the
        streams wait on each other."""
        stuck = {s.stream_id for s in self.ctx.device.blocked_streams()}
        first: dict[int, tuple[int, int | None]] = {}
        for w in self.wait_log:
            if w[0] in stuck and w[0] not in first:
                b = self._binding(w)
                if b is None or not b[1].processed:
                    first[w[0]] = (w[1], None if b is None else b[0])
        parts = []
        for sid in sorted(stuck):
            if sid in first:
                eid, holder = first[sid]
                parts.append(f"stream {sid} waits on event {eid}, " + (
                    f"whose record is queued on stream {holder} behind work that cannot finish" if holder is not None
                    else "which nobody records (aclrtStreamWaitEvent with no matching aclrtRecordEvent)"))
            else:
                parts.append(f"stream {sid} is blocked")
        # follow waits -> the stream holding the record, looking for a cycle
        for start in sorted(first):
            seen, sid = [], start
            while sid in first and first[sid][1] is not None and sid not in seen:
                seen.append(sid)
                sid = first[sid][1]
            if sid in seen:
                cyc = seen[seen.index(sid):]
                ring = " -> ".join(f"stream {x} (waits on event {first[x][0]})" for x in cyc) + f" -> stream {cyc[0]}"
                return f"a cycle of waits across streams: {ring}; " + "; ".join(parts)
        return "; ".join(parts) if parts else "the device has no work it can run"

    def synchronize_stream(self, stream, progress=None) -> None:
        """Run the device until ``stream`` is idle. ``progress(kernels_done)``, if
        given, is called now and then while the simulation runs (for progress bars)."""
        s = self.stream(stream)
        self._flush()
        self.profiler.host_span("synchronize", "aclrtSynchronizeStream")
        self.wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, progress)
        SANITIZER.synchronized([s.stream_id])

    def synchronize_device(self) -> None:
        dev = self.ctx.need_device()
        self._flush()
        self.profiler.host_span("synchronize", "aclrtSynchronizeDevice")
        pending = [s.stream_id for s in dev.blocked_streams()] if SANITIZER.enabled else ()
        end = 0.0
        for s in list(dev.streams.values()):
            self.wait(s.last, s, C.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT)
            end = max(end, dev.env.now) if s.stream_id in pending else end
        if SANITIZER.enabled:
            SANITIZER.device_sync(pending, end, self.ctx.clock.now_ns)
            SANITIZER.synchronized()

    def synchronize_event(self, event) -> None:
        e = self.event(event)
        self._flush()
        self.profiler.host_span("synchronize", "aclrtSynchronizeEvent")
        if e.records:
            self.wait(e.records[-1], None, C.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT)
            SANITIZER.event_synchronized(e.event_id)

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
