"""Time windows and run phases: the part of a trace an analysis looks at.

``--window START:END`` takes ns (plain numbers, optional unit suffix ``ns``,
``us``, ``ms``; either end may be empty: ``:5ms``, ``2e6:``). ``--phase``:

* ``all``: the whole trace;
* ``compute`` (skip the weight upload): from the start of the first kernel task on
  any device, so the H2D copies of weights and inputs before it drop out;
* ``steady``: the last iteration of a repeated run: from the last start of the
  first kernel's name (each iteration of a model begins with the same kernel) to
  the end; the same as ``compute`` when that kernel runs once.

:func:`clip` keeps the spans that intersect the window and cuts them to it, so
summed times of a window never exceed its length per track; span args (flops,
bytes) are kept whole. Counters keep the samples inside the window.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .columns import ColumnSpans, columns_of, is_aggregate, plain_spans
from .intervals import end_ns, is_kernel
from .load import TraceData
from .records import Counter, Span

PHASES = ("all", "compute", "steady")
_UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def _time(text: str) -> float:
    t = text.strip().lower()
    for unit in ("ns", "us", "ms", "s"):
        if t.endswith(unit):
            return float(t[: -len(unit)]) * _UNITS[unit]
    return float(t)


def parse_window(text: str | None) -> tuple[float, float] | None:
    """``"START:END"`` -> (start_ns, end_ns) (a missing end is -inf/+inf); None for
    None. Raises ValueError with a one-line message for anything else."""
    if text is None:
        return None
    if ":" not in text:
        raise ValueError(f"--window must be START:END in ns (e.g. 0:2e6 or 1ms:3ms), not {text!r}")
    a, b = text.split(":", 1)
    try:
        lo = _time(a) if a.strip() else -math.inf
        hi = _time(b) if b.strip() else math.inf
    except ValueError:
        raise ValueError(f"--window must be START:END in ns (e.g. 0:2e6 or 1ms:3ms), not {text!r}") from None
    if not hi > lo:
        raise ValueError(f"--window end must be after its start: {text!r}")
    return lo, hi


def phase_window(data: TraceData, phase: str) -> tuple[float, float] | None:
    """The (start_ns, end_ns) window of ``phase`` (module docstring), None for
    ``all``. A trace without kernels has no compute phase: the whole trace."""
    if phase not in PHASES:
        raise ValueError(f"--phase must be one of {', '.join(PHASES)}, not {phase!r}")
    if phase == "all":
        return None
    kernels = sorted((s for s in plain_spans(data) if is_kernel(s)), key=lambda s: s.start_ns)
    if not kernels:
        return None
    start = kernels[0].start_ns
    if phase == "steady":
        start = max(s.start_ns for s in kernels if s.name == kernels[0].name)
    return start, math.inf


def clip(data: TraceData, window: tuple[float, float] | None) -> TraceData:
    """``data`` restricted to ``window`` (module docstring); ``data`` itself if None."""
    if window is None:
        return data
    lo, hi = window
    spans = []
    cols = columns_of(data)
    for s in (cols.kept if cols is not None else data.spans):
        e = end_ns(s)
        if e < lo or s.start_ns > hi or (s.dur_ns > 0 and (e <= lo or s.start_ns >= hi)):
            continue
        a, b = max(s.start_ns, lo), min(e, hi)
        spans.append(s if (a, b) == (s.start_ns, e) else
                     Span(s.track, s.name, a, b - a, s.cat, s.args, s.flow_id, s.flow_out))
    if cols is not None:
        spans = _clip_columns(cols, spans, lo, hi)
    counters = [c for c in data.counters if lo <= c.ts_ns <= hi]
    meta = dict(data.metadata)
    meta["window_ns"] = [lo if math.isfinite(lo) else None, hi if math.isfinite(hi) else None]
    return TraceData(spans, counters, meta)


def _clip_columns(cols: ColumnSpans, kept: list[Span], lo: float, hi: float) -> ColumnSpans:
    """:func:`clip` of a streamed trace's spans: the kept ones already clipped
    (``kept``), the pipe columns cut with numpy; file order is kept."""
    p = cols.pipes
    if is_aggregate(p):      # traces.bounded_load built it clipped to this window already
        if p.window != (lo, hi):
            raise ValueError(f"pipe aggregates were built for the window {p.window}, not {(lo, hi)}")
        return ColumnSpans(kept, np.zeros(len(kept), np.int64), p)
    e = p.start + p.dur
    keep = ~((e < lo) | (p.start > hi) | ((p.dur > 0) & ((e <= lo) | (p.start >= hi))))
    a, b = np.maximum(p.start, lo), np.minimum(e, hi)
    cut = (a != p.start) | (b != e)
    start, dur = np.where(cut, a, p.start), np.where(cut, b - a, p.dur)
    kept_in = np.array([not (se < lo or s.start_ns > hi or (s.dur_ns > 0 and (se <= lo or s.start_ns >= hi)))
                        for s in cols.kept for se in (end_ns(s),)], bool)
    # positions among the spans left: count the spans dropped before each kept one
    alive = np.ones(len(cols), bool)
    alive[cols.kept_pos[~kept_in]] = False
    pipe_pos = np.ones(len(cols), bool)
    pipe_pos[cols.kept_pos] = False
    alive[np.flatnonzero(pipe_pos)[~keep]] = False
    new_pos = np.cumsum(alive) - 1
    return ColumnSpans(kept, new_pos[cols.kept_pos[kept_in]], p.select(keep, start, dur))


def select(data: TraceData, window: str | tuple | None = None, phase: str = "all") -> TraceData:
    """Apply ``phase`` then ``window`` (both optional): the intersection of the two."""
    w = parse_window(window) if isinstance(window, str) else window
    p = phase_window(data, phase)
    if p is not None and w is not None:
        w = (max(w[0], p[0]), min(w[1], p[1]))
        if not w[1] > w[0]:
            raise ValueError("--window and --phase do not intersect")
    return clip(data, w if w is not None else p)


__all__ = ["PHASES", "parse_window", "phase_window", "clip", "select", "Counter"]
