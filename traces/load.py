"""Reading traces back: a file or a Chrome trace dict becomes spans and counters in ns.

Every analysis function accepts anything :func:`as_trace_data` does: a path to a
``.json``/``.json.gz`` trace, a loaded trace dict, or plain trace data
(:func:`traces.chrome_trace.unpack_source`: a ``trace_records()`` producer such as
the runtime's profiler or an ``npu_sim.Device``, a recorder, a list of span
records). Loaded spans are :class:`traces.records.Span` records with the
simulator's fields (times back in ns; ``ts * 1000``), with ``flow_id``/``flow_out``
restored from the flow events.
"""
from __future__ import annotations

import gzip
import json
from array import array
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .chrome_trace import NS_PER_US, unpack_source
from .columns import ColumnSpans, PipeColumns
from .records import Counter, Span, finite  # noqa: F401  (finite: re-exported, its old home)
from .tracks import is_device, parse_core_track
from .validate import TraceFormatError, _check_event, trace_events


class TraceLoadError(Exception):
    """A trace that cannot be read: missing file, not JSON, or not a Chrome trace.
    ``str(err)`` is a one-line message fit for a command line."""


@dataclass
class TraceData:
    """Spans, counters and ``otherData`` metadata of one trace, times in ns."""

    spans: list[Span]
    counters: list[Counter] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    @property
    def devices(self) -> list[str]:
        """Device process names with spans, in order ("device 0", ...)."""
        from .tracks import process_sort_key
        cols = self.spans if isinstance(self.spans, ColumnSpans) else None
        procs = ({t[0] for t in cols.tracks()} if cols is not None else {s.track[0] for s in self.spans})
        return sorted({p for p in procs if is_device(p)}, key=process_sort_key)


def read_trace_file(path: str | Path) -> Any:
    """The parsed JSON of a trace file (gzip if it ends in .gz), checked to have a
    ``traceEvents`` list. Raises :class:`TraceLoadError` with a one-line message."""
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    try:
        with opener(path, "rt", encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise TraceLoadError(f"{path}: not JSON ({e.msg} at line {e.lineno} column {e.colno})") from None
    except (OSError, UnicodeDecodeError, EOFError) as e:     # gzip.BadGzipFile is an OSError
        raise file_error(path, e) from None
    except RecursionError:
        raise TraceLoadError(f"{path}: JSON nested too deeply") from None
    try:
        trace_events(data)
    except TraceFormatError as e:
        raise TraceLoadError(f"{path}: {e}") from None
    return data


def file_error(path: Path, e: BaseException) -> TraceLoadError:
    """The one-line :class:`TraceLoadError` for an OS or decoding error reading ``path``."""
    if isinstance(e, FileNotFoundError):
        return TraceLoadError(f"{path}: no such file")
    if isinstance(e, IsADirectoryError):
        return TraceLoadError(f"{path}: is a directory, not a trace file")
    if isinstance(e, PermissionError):
        return TraceLoadError(f"{path}: permission denied")
    return TraceLoadError(f"{path}: not a JSON text file ({type(e).__name__}: {e})")


def from_chrome_trace(trace: Any) -> TraceData:
    """Spans and counters of a Chrome trace dict (or event list) in ns. Raises
    :class:`TraceLoadError` for a malformed event (it does not check overlaps)."""
    try:
        events = trace_events(trace)
    except TraceFormatError as e:
        raise TraceLoadError(str(e)) from None
    meta: dict[str, Any] = {}
    if isinstance(trace, dict):
        for key in ("metadata", "otherData"):
            if isinstance(trace.get(key), dict):
                meta.update(trace[key])
    return events_to_data(events, meta)


def events_to_data(events: Iterable[Any], meta: dict[str, Any] | None = None, compact: bool = False,
                   keep_args: frozenset | None = None, sink: Any = None) -> TraceData:
    """:class:`TraceData` from an iterable of Chrome trace events, in one pass (so a
    streaming parser can feed it, :mod:`traces.stream_load`). Tracks are named from
    the M events wherever they appear; an "E" closes the innermost open "B" of its
    track; "i"/"I" become zero-length spans; flows ("s"/"f") attach to the span that
    starts at the same time on the same track. Raises :class:`TraceLoadError`.

    ``compact``: spans on core (pipe) tracks named before them go into numpy
    columns, and ``spans`` is a :class:`traces.columns.ColumnSpans` (bounded memory
    for big traces; flows attach to the other spans only); ``keep_args``: with
    ``compact``, the other spans keep only these args keys (names are shared);
    ``sink``: with ``compact``, what takes the pipe spans instead of the columns
    (:class:`traces.bounded.PipeAggregate`: the summary's aggregates only)."""
    procs: dict[Any, str] = {}
    threads: dict[tuple, str] = {}
    spans: list[Span] = []
    at: dict[tuple, Span] = {}
    counters: list[Counter] = []
    flows: list[tuple] = []
    open_b: dict[tuple, list[dict]] = {}     # B events waiting for their E, per (pid, tid)
    pipes = (sink if sink is not None else PipeColumns()) if compact else None
    if hasattr(pipes, "bind"):
        pipes.bind(threads)
    kept_pos = array("q")
    n_spans = [0]
    on_core: dict[tuple, bool] = {}
    shared: dict[str, str] = {}

    def add(ev: dict, ts: float, dur: float, args: Any) -> None:
        key = (ev["pid"], ev["tid"])
        if pipes is not None:
            core = on_core.get(key)
            if core is None and key in threads:
                core = on_core[key] = parse_core_track(threads[key]) is not None
            n_spans[0] += 1
            if core:
                pipes.add(key, str(ev.get("name", "")), ts * NS_PER_US, dur * NS_PER_US, str(ev.get("cat", "")), args)
                return
            kept_pos.append(n_spans[0] - 1)
            if keep_args is not None and args:
                args = {k: v for k, v in args.items() if k in keep_args}
            name, cat = str(ev.get("name", "")), str(ev.get("cat", ""))
            s = Span(key, shared.setdefault(name, name), ts * NS_PER_US, dur * NS_PER_US, shared.setdefault(cat, cat),
                     args)
        else:
            s = Span(key, str(ev.get("name", "")), ts * NS_PER_US, dur * NS_PER_US, str(ev.get("cat", "")), args)
        spans.append(s)
        at.setdefault((key[0], key[1], ts), s)

    try:
        num = (int, float)
        for i, ev in enumerate(events):
            ph = ev.get("ph") if type(ev) is dict else None
            if ph == "X":
                # fast path for the common, well-formed span; anything else gets the full check's error
                ts, dur, args = ev.get("ts"), ev.get("dur"), ev.get("args")
                if not (type(ts) in num and type(dur) in num and dur >= 0 and ts - ts == 0 and dur - dur == 0
                        and type(ev.get("name")) is str and "pid" in ev and "tid" in ev
                        and (type(args) is dict or (args is None and "args" not in ev))):
                    _check_event(i, ev)
                add(ev, ts, dur, args)
                continue
            _check_event(i, ev)
            if ph == "B":
                open_b.setdefault((ev["pid"], ev["tid"]), []).append(ev)
            elif ph == "E":
                stack = open_b.get((ev["pid"], ev["tid"]))
                if stack:      # an E closes the innermost open B of its track (Chrome trace format)
                    b = stack.pop()
                    args = dict(b.get("args") or {}) | dict(ev.get("args") or {})
                    add(b, b["ts"], max(ev["ts"] - b["ts"], 0.0), args or None)
            elif ph in ("i", "I") and "tid" in ev:
                add(ev, ev["ts"], 0.0, ev.get("args"))
            elif ph == "C":
                for k, v in ev["args"].items():
                    counters.append(Counter(ev["name"], k, ev["ts"] * NS_PER_US, v))
            elif ph in ("s", "f"):
                flows.append((ev["pid"], ev["tid"], ev["ts"], ev["id"], ph))
            elif ph == "M" and isinstance(ev.get("args"), dict):
                if ev.get("name") == "process_name":
                    procs[ev.get("pid")] = ev["args"]["name"]
                elif ev.get("name") == "thread_name":
                    threads[(ev.get("pid"), ev.get("tid"))] = ev["args"]["name"]
    except TraceFormatError as e:
        raise TraceLoadError(str(e)) from None
    names: dict[tuple, tuple[str, str]] = {}
    for s in spans:
        key = s.track
        t = names.get(key)
        if t is None:
            t = names[key] = (procs.get(key[0], f"pid {key[0]}"), threads.get(key, f"tid {key[1]}"))
        s.track = t
    for pid, tid, ts, fid, ph in flows:
        s = at.get((pid, tid, ts))
        if s is not None and isinstance(fid, (int, str)):
            s.flow_id = fid
            s.flow_out = ph == "s"
    if pipes is not None:
        for t in pipes.tracks:
            if t not in names:
                names[t] = (procs.get(t[0], f"pid {t[0]}"), threads.get(t, f"tid {t[1]}"))
        spans = ColumnSpans(spans, np.frombuffer(kept_pos, np.int64), pipes.finish(names))
    return TraceData(spans, counters, dict(meta or {}))


def as_trace_data(source: Any) -> TraceData:
    """Normalise any trace source (module docstring) to :class:`TraceData`."""
    if isinstance(source, TraceData):
        return source
    if isinstance(source, (str, Path)):
        return from_chrome_trace(read_trace_file(source))
    if isinstance(source, dict) or (isinstance(source, list) and source and isinstance(source[0], dict)):
        return from_chrome_trace(source)
    spans, counters, meta = unpack_source(source)
    return TraceData(spans, counters, meta)
