"""Interval arithmetic on (start_ns, end_ns) pairs, and the span selections the
analyses share."""
from __future__ import annotations

from typing import Iterable

from .records import Span
from .tracks import KERNEL_TASK_TYPES, SYNC_TASK_TYPES, is_device, parse_stream

Interval = tuple[float, float]


def union(intervals: Iterable[Interval]) -> list[Interval]:
    """Merge into sorted, disjoint intervals (touching ones merge)."""
    out: list[list[float]] = []
    for s, e in sorted(intervals):
        if out and s <= out[-1][1]:
            if e > out[-1][1]:
                out[-1][1] = e
        else:
            out.append([s, e])
    return [(s, e) for s, e in out]


def total(intervals: Iterable[Interval]) -> float:
    """Summed length of intervals (count overlaps once only if already disjoint)."""
    return sum(e - s for s, e in intervals)


def intersection(a: list[Interval], b: list[Interval]) -> list[Interval]:
    """Intersection of two sorted disjoint interval lists."""
    out, i, j = [], 0, 0
    while i < len(a) and j < len(b):
        s, e = max(a[i][0], b[j][0]), min(a[i][1], b[j][1])
        if s < e:
            out.append((s, e))
        if a[i][1] < b[j][1]:
            i += 1
        else:
            j += 1
    return out


def end_ns(span: Span) -> float:
    return span.start_ns + span.dur_ns


def task_type(span: Span) -> str:
    """msprof task type of a stream span: its ``args["task_type"]`` if recorded,
    else MEMCPY for cat "memcpy", the span name for sync tasks, else AI_CORE."""
    tt = span.args.get("task_type") if isinstance(span.args, dict) else None
    if isinstance(tt, str):
        return tt
    if span.cat == "memcpy":
        return "MEMCPY"
    return span.name if span.name in SYNC_TASK_TYPES else "AI_CORE"


def is_task(span: Span) -> bool:
    """A stream task (kernel, memcpy or sync) on a device."""
    return span.cat in ("task", "memcpy") and is_device(span.track[0]) and parse_stream(span.track[1]) is not None


def is_kernel(span: Span) -> bool:
    return is_task(span) and task_type(span) in KERNEL_TASK_TYPES


def is_sync(span: Span) -> bool:
    return is_task(span) and task_type(span) in SYNC_TASK_TYPES
