"""The profiler: the host track, the runtime's counters, and read-only views of what
the device recorded, handed to ``traces`` as plain data.

Like msprof's host-side collection, the profiler owns the host timeline: every
ACL or aclnn call's span (charged on the host clock, ``acl_runtime.host_clock``),
the "blocked (waiting for the device)" spans of synchronizing calls, the flow ids
that link a host launch to the device task it created, and the device-memory
counter. The device's own recorder (``npu_sim.Device.recorder``) holds its stream,
core and pipe tracks only.

Order: host spans are recorded when the host calls, device spans while the device
runs (only inside the runtime's synchronizing calls). After each run the
profiler notes how far both recordings had got (:meth:`Profiler.device_ran`), so
:meth:`Profiler.trace_records` interleaves them in the order they were recorded
-- the order the Chrome trace writer keeps for spans that start at the same time.

Module functions (:func:`kernel_records`, :func:`kernels_completed`,
:func:`peak_memory_bytes`, :func:`trace_data`, :func:`write_trace`,
:func:`host_spans`, :func:`clear`) are the same views on the process-wide runtime.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

from npu_sim.trace import TraceRecorder

#: the host thread's track (process, thread)
HOST_TRACK = ("host", "thread 0")
#: the counter track of device memory in use, and its one series
MEMORY_COUNTER = ("device memory", "in use (bytes)")
#: the per-device counter series of L2 hit rate, one sample per kernel (in %, at its end)
L2_COUNTER_SERIES = "L2 hit rate (%)"
#: trace levels of :meth:`Profiler.set_level`, most detailed first
TRACE_LEVELS = ("pipes", "kernels", "off")
#: mean Chrome-JSON bytes per event (:meth:`Profiler.estimate_trace_bytes`)
PIPE_SPAN_BYTES, OTHER_SPAN_BYTES, COUNTER_BYTES = 135, 270, 110
#: reference switch (issue 17): at trace level "pipes" a recording is packed after a
#: device run (:meth:`Profiler.device_ran`) only once it holds this many list slots
#: recorded since its last pack (``npu_sim.trace.TraceRecorder.tail_slots``: one a pipe
#: span, nine another span; 2^17 slots are about 20 MB of tuples). A model run keeps
#: fewer (light VGG-19 ~60,000, MiniLM 8x128 ~24,000), so its spans go to the trace
#: writer as recorded instead of being packed into columns and unpacked again
#: (MiniLM: ~50-70 ms of packing). 0: pack after every run, as at the other levels.
PACK_MIN_SLOTS = 1 << 17


class Profiler:
    """Host track and counters of one ACL context (``ctx``: its
    :class:`acl_runtime.context.Context`, for the device and the host clock).

    ``host`` is a :class:`npu_sim.trace.TraceRecorder` (the same garbage-collector
    friendly storage as the device's); ``flow`` the last flow id handed out. Host
    spans are recorded only while a device is set (a trace belongs to a device).
    """

    def __init__(self, ctx) -> None:
        self.ctx = ctx
        self.reset()

    def reset(self) -> None:
        """Forget everything (aclFinalize)."""
        self.host = TraceRecorder()
        self.level = "pipes"
        self.flow = 0
        self._marks: list[tuple[int, int]] = []   # (host spans, device spans) after each device run
        self._l2_seen: tuple[object, int] = (None, 0)   # (device, kernel records sampled)

    # ---- recording ----------------------------------------------------------------------
    def host_span(self, what: str, name: str | None = None, args: dict | None = None,
                  flow: bool = False) -> tuple[float, int | None]:
        """Charge host call ``what`` (a key of ``host_clock.HOST_COST_NS``) and record its
        span ``name`` (default ``what``); with ``flow``, a new flow id leaves it.
        Returns (host time after the call, ns; the flow id or None)."""
        ctx = self.ctx
        clock = ctx.clock
        start, dur = clock.advance(what)
        fid = None
        if flow:
            self.flow += 1
            fid = self.flow
        if ctx.device is not None:
            self.host.span(HOST_TRACK, name or what, start, dur, "host", args, flow_id=fid, flow_out=flow)
        return clock.now_ns, fid

    def charge(self, name: str, dur_ns: float, args: dict | None = None) -> None:
        """Charge a host call of ``dur_ns`` ns and record its span ``name`` (no flow)."""
        start, dur = self.ctx.clock.advance_ns(dur_ns)
        if self.ctx.device is not None:
            self.host.span(HOST_TRACK, name, start, dur, "host", args)

    def blocked(self, start_ns: float, end_ns: float) -> None:
        """Record that the host waited for the device from ``start_ns`` to ``end_ns``,
        as msprof's host track draws a blocking call."""
        self.host.span(HOST_TRACK, "blocked (waiting for the device)", start_ns, end_ns - start_ns, "host")

    def memory_in_use(self, t_ns: float, nbytes: int) -> None:
        """A sample of device memory in use (bytes) at host time ``t_ns``."""
        self.host.counter(MEMORY_COUNTER[0], MEMORY_COUNTER[1], t_ns, nbytes)

    def l2_samples(self) -> None:
        """Add one :data:`L2_COUNTER_SERIES` sample per kernel completed since the last
        call to the device's counter track (process ``device N``): the kernel record's
        ``l2_hit_rate`` x 100 at its end time (npu_sim.device: L2 bus bytes over all GM
        bus bytes)."""
        dev = self.ctx.device
        if dev is None:
            return
        seen_dev, k = self._l2_seen
        recs = dev.kernel_records
        k = k if seen_dev is dev else 0
        if k < len(recs) and dev.recorder.enabled:
            counter, pid = dev.recorder.counter, dev.track_pid
            for start, dur, rate in recs.columns(("start_ns", "dur_ns", "l2_hit_rate"), 0.0, since=k):
                counter(pid, L2_COUNTER_SERIES, start + dur, 100.0 * rate)
        self._l2_seen = (dev, len(recs))

    def device_ran(self) -> None:
        """Call after the device ran: adds the kernels' L2 samples (:meth:`l2_samples`),
        packs both recordings (keeps a long trace out of the garbage collector's way,
        ``npu_sim.trace``; at level "pipes" only a recording past
        :data:`PACK_MIN_SLOTS`) and notes where they stand."""
        dev = self.ctx.device
        if dev is None:
            return
        self.l2_samples()
        lazy = PACK_MIN_SLOTS and self.level == "pipes"
        for rec in (self.host, dev.recorder):
            if not lazy or rec.tail_slots() >= PACK_MIN_SLOTS:
                rec.pack()
        mark = (len(self.host), len(dev.recorder))   # incremental: TraceRecorder.__len__ keeps its count
        if not self._marks or self._marks[-1] != mark:
            self._marks.append(mark)

    def set_enabled(self, enabled: bool) -> None:
        """Record (True, the default) or drop (False) every span: host and device."""
        self.host.enabled = bool(enabled)
        if self.ctx.device is not None:
            self.ctx.device.recorder.enabled = bool(enabled)

    def set_level(self, level: str) -> None:
        """What to record from now on: "pipes" (everything, the default), "kernels"
        (host, stream-task and counter records but no per-tile pipe spans: a few
        hundred bytes per launch instead of a few KiB) or "off" (nothing). Raises
        ValueError for another level. Simulated times do not depend on it."""
        if level not in TRACE_LEVELS:
            raise ValueError(f"trace level must be one of {', '.join(TRACE_LEVELS)}, got {level!r}")
        self.set_enabled(level != "off")
        self.level = level
        dev = self.ctx.device
        if dev is not None:
            dev.recorder.pipes = level == "pipes"

    def clear(self) -> None:
        """Drop every span and counter recorded so far, host and device."""
        self.host.clear()
        self._marks.clear()
        if self.ctx.device is not None:
            self.ctx.device.recorder.clear()

    # ---- views ----------------------------------------------------------------------------
    def host_spans(self) -> list:
        """The host track's spans (``npu_sim.trace.Span``), in recording order."""
        return list(self.host.spans)

    def trace_records(self) -> tuple[list, list, dict[str, Any]]:
        """``(spans, counters, metadata)``: host and device spans in recording order,
        the counters, and the device's chip facts (``Device.trace_metadata``) --
        plain data for ``traces`` (``traces.to_chrome_trace(profiler)`` calls this)."""
        return self._interleaved(lambda rec: rec.spans)

    def trace_entries(self) -> tuple[list, list, dict[str, Any]]:
        """:meth:`trace_records` with each span as the plain tuple of
        ``npu_sim.trace.TraceRecorder.entries`` (a pipe 6-tuple or a span 8-tuple),
        same order; builds no ``Span`` objects (the trace writer's input)."""
        return self._interleaved(lambda rec: rec.entries())

    def _interleaved(self, read) -> tuple[list, list, dict[str, Any]]:
        """(host and device spans as ``read(recorder)`` gives them, interleaved in
        recording order; counters; chip metadata)."""
        dev = self.ctx.device
        host = read(self.host)
        if dev is None:
            return list(host), list(self.host.counters), {}
        self.l2_samples()
        device = read(dev.recorder)
        spans: list = []
        h0 = d0 = 0
        marks = self._marks
        if marks and (marks[-1][0] > len(host) or marks[-1][1] > len(device)):
            marks = []   # a recording was cleared behind the profiler's back: order by source only
        for h, d in marks:
            spans += host[h0:h]
            spans += device[d0:d]
            h0, d0 = h, d
        spans += host[h0:]
        spans += device[d0:]
        return spans, list(self.host.counters) + list(dev.recorder.counters), dev.trace_metadata()

    def estimate_trace_bytes(self) -> tuple[int, int]:
        """(estimated bytes of the JSON trace :meth:`write_trace` would write now, spans
        recorded), from the span counts alone (no trace is built). Per event, the
        means of the Chrome JSON of light ResNet-50 and MiniLM runs: a pipe span
        about 135 B, another span (host call, stream task with its args) about 270 B,
        a counter sample about 110 B; within ~10% of the written size there."""
        dev = self.ctx.device
        n, pipes = self.host.span_counts()
        counters = len(self.host.counters)
        if dev is not None:
            dn, dp = dev.recorder.span_counts()
            n, pipes, counters = n + dn, pipes + dp, counters + len(dev.recorder.counters)
        return PIPE_SPAN_BYTES * pipes + OTHER_SPAN_BYTES * (n - pipes) + COUNTER_BYTES * counters, n

    def trace_data(self, metadata: dict | None = None):
        """:meth:`trace_records` as a :class:`traces.TraceData` (``metadata`` merged
        over the chip facts), which every ``traces`` analysis accepts."""
        from traces.load import TraceData
        spans, counters, meta = self.trace_records()
        if metadata:
            meta.update(metadata)
        return TraceData(spans, counters, meta)

    def write_trace(self, path, metadata: dict | None = None) -> Path:
        """Write :meth:`trace_records` as a Chrome/Perfetto trace (gzip when ``path``
        ends in ``.gz``): the bytes ``traces.chrome_trace.write_chrome_trace`` writes,
        faster (:mod:`acl_runtime.trace_writer`), atomically (:mod:`acl_runtime.atomic_io`:
        an interrupt or a full disk keeps the old file). Raises ValueError when two spans
        of one track overlap (nothing is written then)."""
        from .atomic_io import atomic_write_path
        from .trace_writer import write_trace_fast
        gz = str(path).endswith(".gz")
        return atomic_write_path(path, lambda tmp: write_trace_fast(self, tmp, metadata, gzip_out=gz))


# ---- the same views on the process-wide runtime ------------------------------------------------
def _rt():
    from .runtime import runtime   # (runtime.py builds the Profiler: import it at call time)
    return runtime()


def kernel_records(since: int = 0) -> list[dict]:
    """Completed kernels from index ``since`` (``Runtime.kernel_records``)."""
    return _rt().kernel_records(since)


def kernels_completed() -> int:
    """Kernels the device has finished so far."""
    return _rt().kernels_completed()


def peak_memory_bytes() -> int:
    """Peak device memory in use since the device was set (bytes)."""
    return _rt().peak_memory_bytes()


def host_spans() -> list:
    """The host track's spans so far, in recording order."""
    return _rt().profiler.host_spans()


def trace_data(metadata: dict | None = None):
    """Host and device records so far as a :class:`traces.TraceData`, after running
    queued work to completion (``Runtime.trace_data``)."""
    return _rt().trace_data(metadata)


def write_trace(path, metadata: dict | None = None) -> Path:
    """Run queued work to completion and write the trace (``Runtime.write_trace``)."""
    return _rt().write_trace(path, metadata)


def estimate_trace_bytes() -> tuple[int, int]:
    """(estimated trace bytes, spans) of what is recorded so far (:meth:`Profiler.estimate_trace_bytes`)."""
    return _rt().profiler.estimate_trace_bytes()


def clear() -> None:
    """Drop every span and counter recorded so far (host and device)."""
    _rt().profiler.clear()


def set_level(level: str) -> None:
    """Trace level from now on: "pipes", "kernels" or "off" (:meth:`Profiler.set_level`)."""
    _rt().profiler.set_level(level)


def set_enabled(enabled: bool) -> None:
    """Record (True) or drop (False) every span from now on, host and device."""
    _rt().profiler.set_enabled(enabled)
