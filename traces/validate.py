"""Structural checks for a Chrome trace dict, as ``npu-trace validate`` runs them.

:func:`validate_trace` checks, in order, and raises :class:`TraceFormatError` (a
ValueError) at the first problem, with a message that names the event or track:

1. the top level is ``{"traceEvents": [...]}`` (or a bare list of events) and every
   event is an object with a string ``ph``;
2. "X" events have a string ``name``, ``pid``/``tid``, finite ``ts`` and finite
   ``dur >= 0``; "C" events a ``name``, finite ``ts`` and numeric ``args``;
   flow events ("s"/"t"/"f") an ``id`` and finite ``ts``;
3. every pid with events has a ``process_name`` and every (pid, tid) with an
   "X" or flow event a ``thread_name``;
4. flows pair up: each id has exactly one "s" and one "f", and each end lies
   inside (or at the start of) an "X" span on its track;
5. no two "X" spans overlap on one track (:func:`~traces.chrome_trace.check_no_overlap`).
"""
from __future__ import annotations

import bisect
import math
from typing import Any

from .chrome_trace import OVERLAP_TOLERANCE_US, _track_names, check_no_overlap


class TraceFormatError(ValueError):
    """A trace that is JSON but not a well-formed Chrome trace of this project."""


def trace_events(trace: Any) -> list:
    """The event list of a trace dict (or bare list). Raises TraceFormatError."""
    if isinstance(trace, list):
        if all(isinstance(ev, dict) for ev in trace):
            return trace
        raise TraceFormatError("not a Chrome trace: a JSON array of trace events must hold only objects")
    if isinstance(trace, dict) and isinstance(trace.get("traceEvents"), list):
        return trace["traceEvents"]
    raise TraceFormatError('not a Chrome trace: expected an object with a "traceEvents" list')


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _check_event(i: int, ev: Any) -> None:
    if not isinstance(ev, dict):
        raise TraceFormatError(f"event {i} is not an object: {ev!r:.60}")
    ph = ev.get("ph")
    if not isinstance(ph, str):
        raise TraceFormatError(f"event {i} has no string 'ph' field")
    where = f"event {i} ({ph} {ev.get('name', '')!r})"
    if ph == "X":
        if not isinstance(ev.get("name"), str):
            raise TraceFormatError(f"{where}: 'name' must be a string")
        for k in ("pid", "tid"):
            if k not in ev:
                raise TraceFormatError(f"{where}: missing '{k}'")
        if not _finite(ev.get("ts")):
            raise TraceFormatError(f"{where}: 'ts' must be a finite number, got {ev.get('ts')!r}")
        if not _finite(ev.get("dur")) or ev["dur"] < 0:
            raise TraceFormatError(f"{where}: 'dur' must be a finite number >= 0, got {ev.get('dur')!r}")
        if "args" in ev and not isinstance(ev["args"], dict):
            raise TraceFormatError(f"{where}: 'args' must be an object")
    elif ph == "C":
        if not _finite(ev.get("ts")) or "pid" not in ev or not isinstance(ev.get("name"), str):
            raise TraceFormatError(f"{where}: counters need a string 'name', 'pid' and a finite 'ts'")
        args = ev.get("args")
        if not isinstance(args, dict) or not all(_finite(v) for v in args.values()):
            raise TraceFormatError(f"{where}: counter 'args' must map series names to finite numbers")
    elif ph in ("s", "t", "f"):
        if "id" not in ev or not _finite(ev.get("ts")) or "pid" not in ev or "tid" not in ev:
            raise TraceFormatError(f"{where}: flow events need 'id', 'pid', 'tid' and a finite 'ts'")
    elif ph == "M":
        if ev.get("name") in ("process_name", "thread_name") and not (
                isinstance(ev.get("args"), dict) and isinstance(ev["args"].get("name"), str)):
            raise TraceFormatError(f"{where}: metadata needs args.name (a string)")


def _inside(spans: list[tuple[float, float]], starts: list[float], ts: float) -> bool:
    """Whether ``ts`` lies in one of ``spans`` (sorted, non-overlapping). Only the
    last span starting at or before ``ts`` can hold it, or the one before that when
    the last is a zero-length span at ``ts``."""
    i = bisect.bisect_right(starts, ts + OVERLAP_TOLERANCE_US) - 1
    for j in (i, i - 1):
        if j >= 0 and spans[j][0] - OVERLAP_TOLERANCE_US <= ts <= spans[j][1] + OVERLAP_TOLERANCE_US:
            return True
    return False


def validate_trace(trace: Any) -> dict[str, int]:
    """Run every check (module docstring); return counts: events, spans, tracks,
    processes, counters, flows. Raises :class:`TraceFormatError`."""
    events = trace_events(trace)
    for i, ev in enumerate(events):
        _check_event(i, ev)
    procs, threads = _track_names(events)
    used_pids, used_tracks = set(), set()
    spans: dict[tuple, list[tuple[float, float]]] = {}
    flows: dict[Any, dict[str, list[dict]]] = {}
    n_counters = 0
    for ev in events:
        ph = ev["ph"]
        if ph == "M":
            continue
        if "pid" in ev:
            used_pids.add(ev["pid"])
        if ph == "X":
            used_tracks.add((ev["pid"], ev["tid"]))
            spans.setdefault((ev["pid"], ev["tid"]), []).append((ev["ts"], ev["ts"] + ev["dur"]))
        elif ph in ("s", "t", "f"):
            used_tracks.add((ev["pid"], ev["tid"]))
            flows.setdefault(ev["id"], {}).setdefault(ph, []).append(ev)
        elif ph == "C":
            n_counters += 1
    for pid in sorted(used_pids - procs.keys(), key=repr):
        raise TraceFormatError(f"pid {pid} has events but no process_name metadata event")
    for key in sorted(used_tracks - threads.keys(), key=repr):
        raise TraceFormatError(f"track pid {key[0]} tid {key[1]} has events but no thread_name metadata event")
    check_no_overlap(events)
    for v in spans.values():
        v.sort()
    starts = {k: [s for s, _ in v] for k, v in spans.items()}
    for fid, ends in flows.items():
        if len(ends.get("s", ())) != 1 or len(ends.get("f", ())) != 1:
            raise TraceFormatError(f"flow id {fid!r} has {len(ends.get('s', ()))} start ('s') and "
                                   f"{len(ends.get('f', ()))} finish ('f') events; expected one of each")
        for ph in ("s", "f"):
            ev = ends[ph][0]
            key = (ev["pid"], ev["tid"])
            if not _inside(spans.get(key, []), starts.get(key, []), ev["ts"]):
                track = f"{procs.get(key[0])} / {threads.get(key)}"
                raise TraceFormatError(f"flow id {fid!r}: its '{ph}' event at ts={ev['ts']} is not inside any "
                                       f"span on track '{track}'")
    return {"events": len(events), "spans": sum(len(v) for v in spans.values()), "tracks": len(threads),
            "processes": len(procs), "counters": n_counters, "flows": len(flows)}
