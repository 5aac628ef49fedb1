"""The critical path of a run: the ops and waits that decided when it ended.

Walked backwards from the span that ends last, with a time cursor that starts at
the run's end and only moves back, so the path's segments tile
[run start, run end] exactly (its length is the run's length; it ends at the
last span). At each step the current span ``s`` holds the cursor:

* if ``s`` waits (a STREAM_WAIT_EVENT task, or a host span that blocks on the
  device: "blocked (waiting for the device)", ``*Synchronize*``), the span that
  released it is the latest one on another track of the device(s) that ends
  inside the wait; the wait is charged from that end to the cursor and the walk
  goes on through the releaser;
* else ``s`` is charged from its start to the cursor, and the walk moves to its
  predecessor: the latest-ending span before it on its own track (a stream runs
  in order, a host thread too), or the host launch that created it (the flow),
  whichever ends later. A gap between the predecessor's end and ``s``'s start is
  an *idle* segment (``host launch`` when the predecessor is the launch: the
  device waited for the host).

Pipe spans are inside their kernel tasks and take no part. Nested slices on one
track (torch traces) count as their outermost slice. Times are ns.
"""
from __future__ import annotations

import bisect
from typing import Any

from .columns import plain_spans
from .intervals import end_ns, task_type
from .load import as_trace_data
from .tracks import parse_core_track

EPS_NS = 1e-6


def _is_wait(s) -> bool:
    if s.cat in ("task", "memcpy") and task_type(s) == "STREAM_WAIT_EVENT":
        return True
    n = s.name.lower()
    return s.track[0] == "host" and (n.startswith("blocked") or "synchronize" in n)


def critical_path(source: Any, device: str | None = None) -> dict[str, Any]:
    """The critical path (module docstring) of the whole trace (host and devices),
    or of one ``device`` process with its host.

    Returns {"start_ns", "end_ns", "length_ns", "segments": [{kind ("op" | "wait" |
    "idle"), name, track ("process / thread"), start_ns, end_ns, dur_ns, why}] in
    time order, "by_name": [{kind, name, dur_ns, share, count}] largest first}.
    An empty trace gives length 0 and no segments.
    """
    data = as_trace_data(source)
    spans = [s for s in plain_spans(data) if parse_core_track(s.track[1]) is None
             and (device is None or s.track[0] in (device, "host"))]
    if not spans:
        return {"start_ns": 0.0, "end_ns": 0.0, "length_ns": 0.0, "segments": [], "by_name": []}
    run_start = min(s.start_ns for s in spans)
    by_track: dict[tuple, list] = {}
    for s in spans:
        by_track.setdefault(s.track, []).append(s)
    ends: dict[tuple, list[float]] = {}
    for t, v in by_track.items():
        v.sort(key=lambda s: (end_ns(s), s.start_ns))
        ends[t] = [end_ns(s) for s in v]
    all_sorted = sorted(spans, key=end_ns)
    all_ends = [end_ns(s) for s in all_sorted]
    launch = {s.flow_id: s for s in spans if s.flow_id is not None and s.flow_out}

    def latest_before(track, t: float, exclude) -> Any:
        v, e = by_track[track], ends[track]
        i = bisect.bisect_right(e, t + EPS_NS) - 1
        while i >= 0 and (v[i] is exclude or v[i].start_ns >= exclude.start_ns and v[i].dur_ns > 0
                          and end_ns(v[i]) <= end_ns(exclude) and v[i].start_ns < t):
            i -= 1     # skip the span itself and slices nested inside it
        return v[i] if i >= 0 else None

    def releaser(s, t: float) -> Any:
        i = bisect.bisect_right(all_ends, t + EPS_NS) - 1
        while i >= 0 and all_ends[i] > s.start_ns:
            r = all_sorted[i]
            if r.track != s.track and r.track[0] != "host" and r.dur_ns > 0:
                return r
            i -= 1
        return None

    segs: list[dict[str, Any]] = []

    def charge(kind: str, s, a: float, b: float, why: str = "") -> None:
        if b - a > EPS_NS:
            segs.append({"kind": kind, "name": s.name if s is not None else "(run start)",
                         "track": f"{s.track[0]} / {s.track[1]}" if s is not None else "", "start_ns": a,
                         "end_ns": b, "dur_ns": b - a, "why": why})

    cur = max(spans, key=lambda s: (end_ns(s), -s.start_ns))
    cursor = end_ns(cur)
    run_end = cursor
    seen = set()
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if _is_wait(cur):
            r = releaser(cur, cursor)
            if r is not None:
                charge("wait", cur, max(end_ns(r), cur.start_ns), cursor, f"released by {r.name}")
                cursor = max(min(end_ns(r), cursor), cur.start_ns)
                cur = r
                continue
        start = min(cur.start_ns, cursor)
        charge("wait" if _is_wait(cur) else "op", cur, start, cursor)
        cursor = start
        cands = []
        p = latest_before(cur.track, cursor, cur)
        if p is not None:
            cands.append((min(end_ns(p), cursor), 1, p, "after " + p.name))
        src = launch.get(cur.flow_id) if cur.flow_id is not None and not cur.flow_out else None
        if src is not None and src.start_ns < cursor:
            cands.append((min(end_ns(src), cursor), 0, src, "host launch"))
        if not cands:
            break
        t, _, nxt, why = max(cands, key=lambda c: (c[0], c[1]))
        if cursor - t > EPS_NS:
            segs.append({"kind": "idle", "name": why, "track": f"{cur.track[0]} / {cur.track[1]}",
                         "start_ns": t, "end_ns": cursor, "dur_ns": cursor - t, "why": why})
        cursor, cur = t, nxt
    if cursor > run_start + EPS_NS:
        segs.append({"kind": "idle", "name": "(before the first span on the path)", "track": "",
                     "start_ns": run_start, "end_ns": cursor, "dur_ns": cursor - run_start, "why": ""})
    segs.reverse()
    length = run_end - run_start
    agg: dict[tuple, dict[str, Any]] = {}
    for g in segs:
        r = agg.setdefault((g["kind"], g["name"]), {"kind": g["kind"], "name": g["name"], "dur_ns": 0.0, "count": 0})
        r["dur_ns"] += g["dur_ns"]
        r["count"] += 1
    by_name = sorted(agg.values(), key=lambda r: (-r["dur_ns"], r["name"]))
    for r in by_name:
        r["share"] = r["dur_ns"] / length if length > 0 else 0.0
    return {"start_ns": run_start, "end_ns": run_end, "length_ns": length, "segments": segs, "by_name": by_name}
