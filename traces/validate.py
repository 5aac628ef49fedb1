"""Structural checks for a Chrome trace dict, as ``npu-trace validate`` runs them.

:func:`validate_trace` checks, in order, and raises :class:`TraceFormatError` (a
ValueError) at the first problem, with a message that names the event or track:

1. the top level is ``{"traceEvents": [...]}`` (or a bare list of events) and every
   event is an object with a string ``ph``;
2. "X" events have a string ``name``, ``pid``/``tid``, finite ``ts`` and finite
   ``dur >= 0``; "C" events a ``name``, finite ``ts`` and numeric ``args``;
   flow events ("s"/"t"/"f") an ``id`` and finite ``ts``; "B"/"E" (begin/end)
   and "i"/"I" (instant) events a ``pid``/``tid`` and finite ``ts`` ("B" a name);
3. every pid with events has a ``process_name`` and every (pid, tid) with a
   slice, instant or flow event a ``thread_name``;
4. flows pair up: each id has exactly one "s" and one "f", and each end lies
   inside (or at the start of) an "X" span on its track;
5. every "E" closes an open "B" on its track, and every "B" is closed;
6. slices on one track nest or follow each other: a slice may lie wholly inside
   another (the torch profiler writes call stacks that way), but two slices that
   *partly* overlap are an error (:func:`check_nesting`).

The writer's own invariant (npu-sim tracks never overlap at all) is the stricter
:func:`~traces.chrome_trace.check_no_overlap`.
"""
from __future__ import annotations

import bisect
import math
from typing import Any

from .chrome_trace import OVERLAP_TOLERANCE_US, _track_names


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
    elif ph in ("B", "E", "i", "I"):
        if not _finite(ev.get("ts")) or "pid" not in ev or ("tid" not in ev and ph in "BE"):
            raise TraceFormatError(f"{where}: '{ph}' events need 'pid', 'tid' and a finite 'ts'")
        if ph == "B" and not isinstance(ev.get("name"), str):
            raise TraceFormatError(f"{where}: 'name' must be a string")
        if "args" in ev and not isinstance(ev["args"], dict):
            raise TraceFormatError(f"{where}: 'args' must be an object")
    elif ph == "M":
        if ev.get("name") in ("process_name", "thread_name") and not (
                isinstance(ev.get("args"), dict) and isinstance(ev["args"].get("name"), str)):
            raise TraceFormatError(f"{where}: metadata needs args.name (a string)")


def _begin_end_slices(events: list, procs: dict, threads: dict) -> dict[tuple, list[tuple[float, float, str]]]:
    """(start, end, name) of each B/E pair per (pid, tid). Raises TraceFormatError for
    an E with no open B on its track, an E before its B, or a B never closed."""
    open_b: dict[tuple, list[dict]] = {}
    out: dict[tuple, list[tuple[float, float, str]]] = {}
    for i, ev in enumerate(events):
        if ev["ph"] not in ("B", "E"):
            continue
        key = (ev["pid"], ev["tid"])
        if ev["ph"] == "B":
            open_b.setdefault(key, []).append(ev)
            continue
        if not open_b.get(key):
            raise TraceFormatError(f"event {i} (E {ev.get('name', '')!r}): no open 'B' event on track "
                                   f"'{procs.get(key[0])} / {threads.get(key)}'")
        b = open_b[key].pop()
        if ev["ts"] < b["ts"] - OVERLAP_TOLERANCE_US:
            raise TraceFormatError(f"event {i} (E): ends at ts={ev['ts']} before its B {b['name']!r} began "
                                   f"at ts={b['ts']}")
        out.setdefault(key, []).append((b["ts"], max(ev["ts"], b["ts"]), b["name"]))
    for key, stack in open_b.items():
        if stack:
            raise TraceFormatError(f"B event {stack[-1]['name']!r} at ts={stack[-1]['ts']} on track "
                                   f"'{procs.get(key[0])} / {threads.get(key)}' has no matching 'E'")
    return out


def check_nesting(slices: list[tuple[float, float, str]], track: str, key: tuple) -> None:
    """Raise TraceFormatError if two of ``slices`` ((start, end, name) in us, sorted by
    start, longest first) partly overlap: each must end before the next starts or lie
    wholly inside it (within :data:`OVERLAP_TOLERANCE_US`)."""
    stack: list[tuple[float, float, str]] = []
    tol = OVERLAP_TOLERANCE_US
    for s in slices:
        while stack and stack[-1][1] <= s[0] + tol:
            stack.pop()
        if stack and s[1] > stack[-1][1] + tol:
            p = stack[-1]
            raise TraceFormatError(
                f"spans overlap on track '{track}' (pid {key[0]}, tid {key[1]}): {p[2]!r} [{p[0]:.4f}, "
                f"{p[1]:.4f}) us and {s[2]!r} [{s[0]:.4f}, {s[1]:.4f}) us overlap partly (nesting is fine)")
        stack.append(s)


def _inside(spans: list[tuple], starts: list[float], ts: float) -> bool:
    """Whether ``ts`` lies in one of ``spans`` (sorted by start; they may nest). Only
    spans starting at or before ``ts`` can hold it; the nearest few are looked at
    first (a parent slice starts at or before its children)."""
    i = bisect.bisect_right(starts, ts + OVERLAP_TOLERANCE_US) - 1
    for j in range(i, max(i - 512, -1), -1):
        if spans[j][0] - OVERLAP_TOLERANCE_US <= ts <= spans[j][1] + OVERLAP_TOLERANCE_US:
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
    n_counters = n_instants = 0
    for ev in events:
        ph = ev["ph"]
        if ph == "M":
            continue
        if "pid" in ev:
            used_pids.add(ev["pid"])
        if ph == "X":
            used_tracks.add((ev["pid"], ev["tid"]))
            spans.setdefault((ev["pid"], ev["tid"]), []).append((ev["ts"], ev["ts"] + ev["dur"], ev["name"]))
        elif ph in ("B", "E", "i", "I") and "tid" in ev:
            used_tracks.add((ev["pid"], ev["tid"]))
            n_instants += ph in ("i", "I")
        elif ph in ("s", "t", "f"):
            used_tracks.add((ev["pid"], ev["tid"]))
            flows.setdefault(ev["id"], {}).setdefault(ph, []).append(ev)
        elif ph == "C":
            n_counters += 1
    for pid in sorted(used_pids - procs.keys(), key=repr):
        raise TraceFormatError(f"pid {pid} has events but no process_name metadata event")
    for key in sorted(used_tracks - threads.keys(), key=repr):
        raise TraceFormatError(f"track pid {key[0]} tid {key[1]} has events but no thread_name metadata event")
    for key, sl in _begin_end_slices(events, procs, threads).items():
        spans.setdefault(key, []).extend(sl)
    for v in spans.values():
        v.sort(key=lambda s: (s[0], -s[1]))
    for key, v in spans.items():
        check_nesting(v, f"{procs.get(key[0], f'pid {key[0]}')} / {threads.get(key, f'tid {key[1]}')}", key)
    starts = {k: [s[0] for s in v] for k, v in spans.items()}
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
            "processes": len(procs), "counters": n_counters, "flows": len(flows), "instants": n_instants}
