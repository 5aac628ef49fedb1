"""Streams and events: aclrtCreateStream/DestroyStream, aclrtCreateEvent/RecordEvent/
StreamWaitEvent, the synchronizing calls and aclrtEventElapsedTime.

A synchronizing call lets the device run (``npu_sim.Device.run_until``) until what
it waits for is done, then the host clock catches up with the device clock; the
time the host waited is drawn on the host track. Stream handles are the device's
stream ids (0 or None = the default stream); numpy integers are accepted.
"""
from __future__ import annotations

from . import constants as C
from .errors import AclError, as_int
from .interrupt import run_until


class Streams:
    """Streams and events of one ACL context. ``rt``: the
    :class:`acl_runtime.runtime.Runtime` (its context, profiler and launch queue)."""

    def __init__(self, rt) -> None:
        self.rt = rt
        self.ctx = rt.context
        self.profiler = rt.profiler

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
        dev = self.ctx.need_device()
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

    def create_event(self) -> int:
        dev = self.ctx.need_device()
        self.profiler.host_span("create_event")
        return dev.create_event().event_id

    def destroy_event(self, handle) -> None:
        e = self.event(handle)
        del self.ctx.device.events[e.event_id]

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
        ok = run_until(dev, ev, progress, self._flush)   # Ctrl-C lands between steps (acl_runtime.interrupt)
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
        not completed one)."""
        a, b = self.event(start), self.event(end)
        for name, e in (("start", a), ("end", b)):
            if not e.records or not e.records[-1].processed:
                raise AclError(C.ACL_ERROR_INVALID_PARAM,
                               f"{name} event {e.event_id} has not completed a record: record it and synchronize first")
        return (b.timestamp_ns - a.timestamp_ns) / 1e6
