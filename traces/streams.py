"""Stream timelines: per-stream totals, idle gaps, and the critical stream.

A stream runs its tasks in order, so its timeline is a chain: busy (kernels and
copies), waiting (STREAM_WAIT_EVENT) and idle gaps between tasks. A gap whose next
task was launched by a host call that ended at the gap's end is *host-bound*: the
device waited for the host to enqueue work. Times are ns.
"""
from __future__ import annotations

from typing import Any

from .columns import plain_spans
from .intervals import end_ns, is_kernel, is_sync, is_task, task_type
from .load import TraceData, as_trace_data
from .tracks import parse_stream, process_sort_key

#: gaps shorter than this (ns) are float noise, not idle time
GAP_EPS_NS = 1e-6
#: a gap is host-bound if the host launch ended within this many ns of its end
HOST_BOUND_TOL_NS = 1.0


def _streams(data: TraceData, device: str | None) -> dict[tuple[str, str], list]:
    out: dict[tuple[str, str], list] = {}
    for s in plain_spans(data):
        if is_task(s) and (device is None or s.track[0] == device):
            out.setdefault(s.track, []).append(s)
    for v in out.values():
        v.sort(key=lambda s: (s.start_ns, s.dur_ns))
    return dict(sorted(out.items(), key=lambda kv: (process_sort_key(kv[0][0]), parse_stream(kv[0][1]))))


def _host_launch_end(data: TraceData) -> dict[Any, float]:
    return {s.flow_id: end_ns(s) for s in plain_spans(data) if s.flow_id is not None and s.flow_out}


def _chain(tasks: list) -> tuple[float, float, list[tuple[float, float, Any, Any]]]:
    """(busy_ns, wait_ns, gaps as (start, dur, task before, task after))."""
    busy = wait = 0.0
    gaps = []
    reach, last = None, None
    for t in tasks:
        if reach is not None and t.start_ns - reach > GAP_EPS_NS:
            gaps.append((reach, t.start_ns - reach, last, t))
        if task_type(t) == "STREAM_WAIT_EVENT":
            wait += t.dur_ns
        elif not is_sync(t):
            busy += t.dur_ns
        if reach is None or end_ns(t) >= reach:
            reach, last = end_ns(t), t
    return busy, wait, gaps


def stream_summary(source: Any, device: str | None = None) -> list[dict[str, Any]]:
    """One row per stream: device, stream (track name), tasks, kernels, memcpys,
    syncs, busy_ns (kernels + copies), wait_ns (STREAM_WAIT_EVENT), idle_ns (gaps
    between tasks), start_ns, end_ns, span_ns, utilization (busy / span)."""
    data = as_trace_data(source)
    rows = []
    for (dev, name), tasks in _streams(data, device).items():
        busy, wait, gaps = _chain(tasks)
        start, end = tasks[0].start_ns, max(end_ns(t) for t in tasks)
        span = end - start
        rows.append({"device": dev, "stream": name, "tasks": len(tasks),
                     "kernels": sum(1 for t in tasks if is_kernel(t)),
                     "memcpys": sum(1 for t in tasks if task_type(t) == "MEMCPY"),
                     "syncs": sum(1 for t in tasks if is_sync(t)), "busy_ns": busy, "wait_ns": wait,
                     "idle_ns": sum(g[1] for g in gaps), "start_ns": start, "end_ns": end, "span_ns": span,
                     "utilization": busy / span if span > 0 else 0.0})
    return rows


def idle_gaps(source: Any, device: str | None = None, min_gap_ns: float = 0.0,
              top: int | None = None) -> list[dict[str, Any]]:
    """Idle gaps between consecutive tasks of each stream, longest first.

    Row keys: device, stream, start_ns, dur_ns, after (name of the task before the
    gap), before (name of the task after it), host_bound (the next task's host
    launch call ended at the gap's end: the device waited for the host).
    """
    data = as_trace_data(source)
    launch_end = _host_launch_end(data)
    rows = []
    for (dev, name), tasks in _streams(data, device).items():
        for start, dur, prev, nxt in _chain(tasks)[2]:
            if dur < min_gap_ns:
                continue
            host_end = launch_end.get(nxt.flow_id) if nxt.flow_id is not None else None
            rows.append({"device": dev, "stream": name, "start_ns": start, "dur_ns": dur, "after": prev.name,
                         "before": nxt.name,
                         "host_bound": host_end is not None and host_end >= start + dur - HOST_BOUND_TOL_NS})
    rows.sort(key=lambda r: (-r["dur_ns"], r["start_ns"]))
    return rows[:top] if top is not None else rows


def critical_path(source: Any, device: str | None = None) -> list[dict[str, Any]]:
    """Critical path, lite: per device, the longest chain of tasks on one stream (the
    stream with the longest first-start-to-last-end span; the later end on a tie).
    Gaps in the chain are idle time; ``host_bound_idle_ns`` is the part of it spent
    waiting for the host to launch the next task.

    Row keys: device, stream, start_ns, end_ns, span_ns, busy_ns, wait_ns, idle_ns,
    host_bound_idle_ns, tasks (list of {name, task_type, start_ns, dur_ns,
    gap_before_ns}).
    """
    data = as_trace_data(source)
    launch_end = _host_launch_end(data)
    best: dict[str, tuple] = {}
    for (dev, name), tasks in _streams(data, device).items():
        start, end = tasks[0].start_ns, max(end_ns(t) for t in tasks)
        key = (end - start, end)
        if dev not in best or key > best[dev][0]:
            best[dev] = (key, name, tasks)
    rows = []
    for dev, (_, name, tasks) in best.items():
        busy, wait, gaps = _chain(tasks)
        gap_before = {id(g[3]): g[1] for g in gaps}
        host_idle = sum(g[1] for g in gaps if g[3].flow_id is not None
                        and launch_end.get(g[3].flow_id, -1.0) >= g[0] + g[1] - HOST_BOUND_TOL_NS)
        start, end = tasks[0].start_ns, max(end_ns(t) for t in tasks)
        rows.append({"device": dev, "stream": name, "start_ns": start, "end_ns": end, "span_ns": end - start,
                     "busy_ns": busy, "wait_ns": wait, "idle_ns": sum(g[1] for g in gaps),
                     "host_bound_idle_ns": host_idle,
                     "tasks": [{"name": t.name, "task_type": task_type(t), "start_ns": t.start_ns,
                                "dur_ns": t.dur_ns, "gap_before_ns": gap_before.get(id(t), 0.0)} for t in tasks]})
    return rows
