"""Chrome trace event JSON: the only place where ns become us.

Layout (``../shared/DESIGN.md`` section 8)::

    {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}

* one pid per process name (host first, then devices by number), named by
  ``process_name`` / ``process_sort_index`` metadata ("M") events;
* one tid per track, named by ``thread_name`` / ``thread_sort_index``: host threads,
  then streams, then cores AIC0, AIC1, ..., AIV0, ..., each core's pipes in the
  order MTE2, MTE1, CUBE, FIXPIPE, VECTOR, MTE3, SCALAR (see :mod:`traces.tracks`);
* an "X" (complete) event per span with ``ts``/``dur`` in microseconds (floats) and
  its ``args``; ``cat`` is the span's category ("host", "task", "memcpy", "pipe");
* a "C" (counter) event per counter sample;
* a flow per ``flow_id``: "s" at the start of the host launch span, "f" with
  ``"bp": "e"`` at the start of the device task it created.

``otherData`` holds the source's metadata (a producer such as the runtime's
profiler or ``npu_sim.Device.trace_records`` adds the chip and core counts of each
device, ``{"devices": {"device 0": {"chip": ..., "aic_count": ..., "aiv_count":
...}}}``, which the analysis uses for utilisation) plus the caller's.

Sources are plain data (:func:`unpack_source`); this package imports nothing of
the simulator, the runtime or the operators.

A track belongs to one sequential actor, so spans on one tid never overlap;
:func:`check_no_overlap` verifies that, and the writers run it by default.
"""
from __future__ import annotations

import dataclasses
import gzip
import json
import math
from enum import Enum
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .records import Counter, is_span_record
from .tracks import assign_ids, is_device

NS_PER_US = 1000.0
#: tolerance (us) when comparing span ends: one picosecond absorbs float rounding
OVERLAP_TOLERANCE_US = 1e-6
GENERATOR = "npu-sim traces"


def json_safe(value: Any) -> Any:
    """``value`` as plain JSON types: numpy scalars and arrays become Python numbers
    and lists, enums their value, dataclasses and pydantic models dicts, tuples and
    sets lists; non-finite floats become the strings "NaN", "Infinity", "-Infinity"
    (strict JSON has no NaN); anything else its ``str``."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, Enum):
        return json_safe(value.value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, (float, np.floating)):
        v = float(value)
        if math.isfinite(v):
            return v
        return "NaN" if math.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(value, dict):
        return {str(json_safe(k)): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted((json_safe(v) for v in value), key=repr)
    if isinstance(value, np.ndarray):
        return json_safe(value.tolist())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: json_safe(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if hasattr(value, "model_dump"):
        return json_safe(value.model_dump(mode="json"))
    return str(value)


def _us(ns: float, what: str) -> float:
    v = float(ns)
    if not math.isfinite(v):
        raise ValueError(f"{what} is not a finite time: {ns!r}")
    return v / NS_PER_US


def unpack_source(source: Any, counters: Iterable[Counter] | None = None, metadata: dict | None = None):
    """(spans, counters, metadata) of a trace source, as plain lists and a dict.

    ``source`` is one of:

    * an object with a ``trace_records()`` method returning ``(spans, counters,
      metadata)`` -- the runtime's profiler (host and device tracks) or an
      ``npu_sim.Device`` (its device tracks and chip facts);
    * an object with ``spans`` and ``counters`` attributes (a recorder, a
      :class:`traces.load.TraceData`), and optionally a ``metadata`` dict;
    * an iterable of span records (:mod:`traces.records`).

    ``counters`` replaces the source's counters; ``metadata`` is merged over its
    metadata. Raises TypeError naming the first item that is not a span record.
    """
    meta: dict[str, Any] = {}
    own_counters: Iterable[Counter] = ()
    if hasattr(source, "trace_records"):
        spans, own_counters, own_meta = source.trace_records()
        meta.update(own_meta or {})
        spans = list(spans)
    elif hasattr(source, "spans") and hasattr(source, "counters"):
        spans = list(source.spans)
        own_counters = source.counters
        own_meta = getattr(source, "metadata", None)
        if isinstance(own_meta, dict):
            meta.update(own_meta)
    else:
        spans = list(source)
    if counters is None:
        counters = own_counters
    for i, s in enumerate(spans):
        if not is_span_record(s):
            raise TypeError(f"span {i} is a {type(s).__name__}, not a span record (traces.records.Span)")
    if metadata:
        meta.update(metadata)
    return spans, list(counters or ()), meta


def _counter_pid(track: str, pids: dict[str, int]) -> str:
    """Which process a counter track belongs to: the process of that name; else the
    only device; else a process of its own (named after the track)."""
    if track in pids:
        return track
    devices = [p for p in pids if is_device(p)]
    return devices[0] if len(devices) == 1 else track


def to_chrome_trace(source: Any, counters: Iterable[Counter] | None = None,
                    metadata: dict[str, Any] | None = None, validate: bool = True) -> dict[str, Any]:
    """Build the Chrome trace dict.

    Args:
        source: plain trace data (:func:`unpack_source`): a ``trace_records()``
            producer, a recorder-like object or an iterable of span records.
        counters: counter samples; default: the source's.
        metadata: extra JSON-able facts for ``otherData`` (e.g. model, chip name).
        validate: run :func:`check_no_overlap` (raises ValueError naming the track).
    """
    spans, counters, meta = unpack_source(source, counters, metadata)
    counter_procs = {c.track for c in counters}
    ids = assign_ids((s.track for s in spans))
    counter_home = {t: _counter_pid(t, ids.pids) for t in counter_procs}
    if set(counter_home.values()) - set(ids.pids):
        ids = assign_ids((s.track for s in spans), extra_processes=counter_home.values())
    events: list[dict[str, Any]] = []
    for proc, pid in ids.pids.items():
        events.append({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": proc}})
        events.append({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0, "args": {"sort_index": pid}})
    for track, tid in ids.tids.items():
        pid = ids.pids[track[0]]
        events.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": track[1]}})
        events.append({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                       "args": {"sort_index": ids.thread_rank[track]}})
    flow_out: dict[int | str, dict] = {}
    flow_in: dict[int | str, dict] = {}
    for s in sorted(spans, key=lambda s: float(s.start_ns)):
        where = f"span {s.name!r} on track {s.track[0]} / {s.track[1]}"
        ts, dur = _us(s.start_ns, where), _us(s.dur_ns, where)
        if dur < 0:
            raise ValueError(f"{where} has a negative duration: {s.dur_ns!r} ns")
        ev = {"ph": "X", "name": str(s.name), "cat": str(s.cat), "pid": ids.pids[s.track[0]],
              "tid": ids.tids[s.track], "ts": ts, "dur": dur}
        if s.args:
            ev["args"] = json_safe(s.args)
        events.append(ev)
        if s.flow_id is not None:
            side = flow_out if s.flow_out else flow_in
            fid = s.flow_id if isinstance(s.flow_id, (int, str)) else int(s.flow_id)
            side.setdefault(fid, ev)
    for c in sorted(counters, key=lambda c: float(c.ts_ns)):
        events.append({"ph": "C", "name": str(c.track), "pid": ids.pids[counter_home[c.track]],
                       "ts": _us(c.ts_ns, f"counter {c.track}/{c.name}"), "args": {str(c.name): json_safe(c.value)}})
    for fid in sorted(flow_out.keys() & flow_in.keys(), key=lambda f: (isinstance(f, str), f)):
        src, dst = flow_out[fid], flow_in[fid]
        events.append({"ph": "s", "id": fid, "name": "launch", "cat": "flow", "pid": src["pid"], "tid": src["tid"],
                       "ts": src["ts"]})
        events.append({"ph": "f", "bp": "e", "id": fid, "name": "launch", "cat": "flow", "pid": dst["pid"],
                       "tid": dst["tid"], "ts": dst["ts"]})
    other = {"generator": GENERATOR}
    other.update(json_safe(meta))
    trace = {"traceEvents": events, "displayTimeUnit": "ns", "otherData": other}
    if validate:
        check_no_overlap(trace)
    return trace


def write_chrome_trace(source: Any, path: str | Path, metadata: dict[str, Any] | None = None,
                       validate: bool = True) -> Path:
    """Write ``to_chrome_trace(source, metadata=metadata)`` to ``path`` (gzip when
    it ends in ``.gz``; Perfetto opens both). Returns the path."""
    trace = to_chrome_trace(source, metadata=metadata, validate=validate)
    path = Path(path)
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "wt", encoding="utf-8") as f:
        json.dump(trace, f, allow_nan=False, separators=(",", ":"))
    return path


def _track_names(events: list[dict]) -> tuple[dict, dict]:
    procs, threads = {}, {}
    for ev in events:
        if ev.get("ph") == "M" and isinstance(ev.get("args"), dict):
            if ev.get("name") == "process_name":
                procs[ev.get("pid")] = ev["args"].get("name")
            elif ev.get("name") == "thread_name":
                threads[(ev.get("pid"), ev.get("tid"))] = ev["args"].get("name")
    return procs, threads


def check_no_overlap(trace: dict[str, Any]) -> None:
    """Raise ValueError naming the track if two "X" spans on one (pid, tid) overlap.

    Spans that touch (one ends where the next starts) are fine; so is a
    zero-duration span at another's start. ``trace`` is a Chrome trace dict (or its
    event list) whose X events have numeric ``ts``/``dur``.
    """
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    procs, threads = _track_names(events)
    by_track: dict[tuple, list[tuple[float, float, str]]] = {}
    for ev in events:
        if ev.get("ph") == "X":
            by_track.setdefault((ev.get("pid"), ev.get("tid")), []).append(
                (float(ev["ts"]), float(ev.get("dur", 0.0)), str(ev.get("name", ""))))
    for key, spans in by_track.items():
        spans.sort(key=lambda s: (s[0], s[1]))
        prev_end, prev = -math.inf, None
        for ts, dur, name in spans:
            if ts < prev_end - OVERLAP_TOLERANCE_US:
                track = f"{procs.get(key[0], f'pid {key[0]}')} / {threads.get(key, f'tid {key[1]}')}"
                raise ValueError(
                    f"spans overlap on track '{track}' (pid {key[0]}, tid {key[1]}): {prev[2]!r} "
                    f"[{prev[0]:.4f}, {prev_end:.4f}) us and {name!r} starting at {ts:.4f} us")
            if ts + dur >= prev_end:
                prev_end, prev = ts + dur, (ts, dur, name)
