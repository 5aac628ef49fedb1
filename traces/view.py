"""``npu-trace view``: a terminal timeline drawn with rich.

One row per track, scaled to the terminal width. Each cell is a time bucket; what
it shows is computed from per-row cumulative busy time (numpy: for sorted starts
and ends, busy(t) = sum(t - start for start < t) - sum(t - end for end < t)), so a
row costs O(spans log spans) however many spans fall in one cell -- a million
spans aggregate into the cells without a per-span draw.

A cell is drawn:

* ``█`` when busy (nearly) all of it;
* with sub-cell resolution where one edge of a span lies in it: a left-aligned
  eighth block (``▏▎▍▌▋▊▉``) when the busy part touches the cell's left edge, the
  same glyph in reverse video (a right-aligned fill) when it touches the right;
* shaded ``░▒▓`` by busy share when many spans share it (or in a collapsed row,
  busy / number of tracks in the row);
* ``·`` for instants (zero-length spans, e.g. EVENT_RECORD) in an empty cell.

The colour of a cell is the category with the most busy time in it
(:func:`category`). ``tracks``: ``streams`` (host threads, streams and any other
named track), ``cores`` (one row per core, its pipes merged), ``pipes`` (one row
per pipe track); ``collapse`` turns per-core rows into one row per core type.

(Over 300 lines on purpose: the rows of the whole-file, column and bounded loads
are built here side by side, so that all three draw the same cells.)
"""
from __future__ import annotations

import math
from typing import Any, Iterable

import numpy as np
from rich.text import Text

from .intervals import end_ns, is_sync, task_type
from .columns import PipeColumns, columns_of, is_aggregate
from .load import TraceData
from .records import Span
from .tracks import COPY_PIPES, parse_core_track, parse_stream, process_sort_key, thread_sort_key

#: category -> colour, in legend order
COLOURS = {"host": "magenta", "memcpy": "yellow", "cube kernel": "red", "vector kernel": "blue",
           "mix kernel": "dark_orange", "sync": "grey50", "CUBE": "red", "VECTOR": "blue",
           "copy pipe": "cyan", "SCALAR": "green", "other": "white"}
#: the same colours for matplotlib and HTML
MPL_COLOURS = {"host": "#c040c0", "memcpy": "#d4b000", "cube kernel": "#d03030", "vector kernel": "#3060d0",
               "mix kernel": "#ff8c00", "sync": "#808080", "CUBE": "#d03030", "VECTOR": "#3060d0",
               "copy pipe": "#20a0b0", "SCALAR": "#30a030", "other": "#b0b0b0"}
EIGHTHS = " ▏▎▍▌▋▊▉█"
SHADES = "░▒▓"
TRACK_KINDS = ("streams", "cores", "pipes")


def category(span) -> str:
    """The colour category of a span: host, memcpy, cube/vector/mix kernel, sync,
    a pipe (CUBE, VECTOR, SCALAR, copy pipe for MTE1/MTE2/MTE3/FIXPIPE), or other."""
    ct = parse_core_track(span.track[1])
    if ct is not None:
        return "copy pipe" if ct.pipe in COPY_PIPES else (ct.pipe if ct.pipe in COLOURS else "other")
    if span.track[0] == "host" or span.cat == "host":
        return "host"
    if span.cat == "memcpy":
        return "memcpy"
    if span.cat == "task":
        if is_sync(span):
            return "sync"
        return {"AI_VECTOR_CORE": "vector kernel", "MIX_AIC": "mix kernel"}.get(task_type(span), "cube kernel")
    return "other"


def row_key(track: tuple[str, str], kinds: set[str], collapse: bool) -> tuple | None:
    """The (sort key, label) of the row ``track`` is drawn in, None if not shown."""
    proc, thread = track
    ct = parse_core_track(thread)
    if ct is None:
        if "streams" not in kinds:
            return None
        return (process_sort_key(proc), thread_sort_key(thread)), f"{proc} / {thread}"
    if "pipes" in kinds:
        if collapse:
            return (process_sort_key(proc), (2 if ct.core_type == "AIC" else 3, 0, 0, ct.pipe)), \
                f"{proc} / {ct.core_type}* {ct.pipe}"
        return (process_sort_key(proc), thread_sort_key(thread)), f"{proc} / {thread}"
    if "cores" in kinds:
        if collapse:
            return (process_sort_key(proc), (2 if ct.core_type == "AIC" else 3, -1, 0, "")), \
                f"{proc} / {ct.core_type} (all)"
        return (process_sort_key(proc), (2 if ct.core_type == "AIC" else 3, ct.core_index, -1, "")), \
            f"{proc} / {ct.core}"
    return None


class Row:
    """Spans of one row as numpy arrays per category (ns), and how many tracks
    (or cores) it merges (``members``)."""

    def __init__(self, label: str):
        self.label = label
        self.parts: dict[str, list[list[float]]] = {}
        self.members: set = set()
        self.cells: dict[str, Any] = {}     # bounded view: category -> pipe track ids, then its cell arrays
        self.bounds: list[float] = [math.inf, -math.inf]   # first start, last end of those tracks

    def add(self, span, member) -> None:
        p = self.parts.setdefault(category(span), [[], []])
        p[0].append(span.start_ns)
        p[1].append(end_ns(span))
        self.members.add(member)


def build_rows(data: TraceData, tracks: Iterable[str] = ("streams", "cores"), collapse: bool = False,
               op_filter: str | None = None) -> list[Row]:
    """Group the spans of ``data`` into rows (module docstring), in display order.
    ``op_filter`` keeps spans whose name contains it (case-insensitive)."""
    kinds = set(tracks)
    bad = kinds - set(TRACK_KINDS)
    if bad:
        raise ValueError(f"--tracks takes {', '.join(TRACK_KINDS)} (comma-separated), not {', '.join(sorted(bad))}")
    want = op_filter.lower() if op_filter else None
    rows: dict[tuple, Row] = {}
    keys: dict[tuple, Any] = {}
    cols = columns_of(data)
    for s in (cols.kept if cols is not None else data.spans):
        if want is not None and want not in s.name.lower():
            continue
        k = keys.get(s.track)
        if k is None:
            k = keys[s.track] = row_key(s.track, kinds, collapse) or ()
        if not k:
            continue
        row = rows.get(k)
        if row is None:
            row = rows[k] = Row(k[1])
        ct = parse_core_track(s.track[1])
        member = s.track if ("pipes" in kinds or ct is None) else (s.track[0], ct.core)
        row.add(s, member)
    if cols is not None and is_aggregate(cols.pipes):
        _aggregate_rows(cols.pipes, rows, kinds, collapse)
    elif cols is not None:
        _pipe_rows(cols.pipes, rows, kinds, collapse, want)
    return [rows[k] for k in sorted(rows, key=lambda k: k[0])]


def _pipe_rows(p: PipeColumns, rows: dict[tuple, Row], kinds: set[str], collapse: bool, want: str | None) -> None:
    """Add the pipe columns of a streamed trace to ``rows`` (as :func:`build_rows`
    does span by span): each (row, category) gets its start/end arrays at once."""
    groups: dict[tuple, list[int]] = {}
    member_of = []
    for i, track in enumerate(p.tracks):
        ct = parse_core_track(track[1])
        k = row_key(track, kinds, collapse)
        member_of.append(track if ("pipes" in kinds or ct is None) else (track[0], ct.core))
        if k:
            cat = category(Span(track, "", 0.0, 0.0, "pipe"))
            groups.setdefault((k, cat), []).append(i)
    if not groups:
        return
    name_ok = np.array([want in n.lower() for n in p.names], bool) if want is not None else None
    for (k, cat), ids in groups.items():
        in_group = np.zeros(len(p.tracks), bool)
        in_group[ids] = True
        m = in_group[p.track]          # one mask at a time: no index array over all spans
        if name_ok is not None:
            m &= name_ok[p.name]
        idx = np.flatnonzero(m)
        del m
        if not len(idx):
            continue
        row = rows.get(k)
        if row is None:
            row = rows[k] = Row(k[1])
        st = p.start[idx]
        part = row.parts.setdefault(cat, [[], []])
        part[0] = np.concatenate((np.asarray(part[0], float), st))
        part[1] = np.concatenate((np.asarray(part[1], float), st + p.dur[idx]))
        row.members.update(member_of[t] for t in np.unique(p.track[idx]))


def _aggregate_rows(p, rows: dict[tuple, Row], kinds: set[str], collapse: bool) -> None:
    """The pipe rows of a bounded load (:class:`traces.bounded.PipeAggregate`, already
    filtered by name): members and time bounds now, cells in :func:`render`'s second pass."""
    groups: dict[tuple, list[int]] = {}
    for i, track in enumerate(p.tracks):
        k = row_key(track, kinds, collapse)
        if k:
            groups.setdefault((k, category(Span(track, "", 0.0, 0.0, "pipe"))), []).append(i)
    for (k, cat), ids in groups.items():
        on = [i for i in ids if p.count[i] > 0]
        if not on:
            continue
        row = rows.get(k)
        if row is None:
            row = rows[k] = Row(k[1])
        row.cells[cat] = on
        for i in on:
            track = p.tracks[i]
            ct = parse_core_track(track[1])
            row.members.add(track if ("pipes" in kinds or ct is None) else (track[0], ct.core))
        row.bounds = [min(row.bounds[0], float(p.first[on].min())), max(row.bounds[1], float(p.last[on].max()))]


def _busy_at(starts: np.ndarray, ends: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Summed busy time of the spans before each time in ``t`` (all sorted, ns)."""
    cs, ce = np.concatenate(([0.0], np.cumsum(starts))), np.concatenate(([0.0], np.cumsum(ends)))
    i = np.searchsorted(starts, t, "left")
    j = np.searchsorted(ends, t, "left")
    return (i * t - cs[i]) - (j * t - ce[j])


def _covered(starts: np.ndarray, ends: np.ndarray, t: np.ndarray, side: str) -> np.ndarray:
    """Whether some span holds time ``t``: [s, e) for side "left", (s, e] for "right"."""
    if side == "left":
        return np.searchsorted(starts, t, "right") - np.searchsorted(ends, t, "right") > 0
    return np.searchsorted(starts, t, "left") - np.searchsorted(ends, t, "left") > 0


def _nice_step(span: float, cells: int, every: int = 14) -> float:
    raw = span / max(cells / every, 1)
    mag = 10 ** math.floor(math.log10(raw)) if raw > 0 else 1.0
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)


def fmt_time(ns: float) -> str:
    """A time in the largest unit that keeps it >= 1: ns, us, ms or s."""
    for div, unit in ((1e9, "s"), (1e6, "ms"), (1e3, "us")):
        if abs(ns) >= div:
            return f"{ns / div:g}{unit}"
    return f"{ns:g}ns"


def render(rows: list[Row], width: int, t0: float, t1: float, fill=None) -> list[Text]:
    """Lines of the timeline ``width`` characters wide from ``t0`` to ``t1`` (ns).
    ``fill(edges, t0, t1, groups)``: for a bounded load, fills each ``row.cells``
    (groups: [(row, category, track ids)]) by streaming the file again."""
    if not rows:
        return [Text("no spans to show")]
    label_w = min(max(len(r.label) for r in rows), 28)
    n = max(10, width - label_w - 3)
    cell = (t1 - t0) / n if t1 > t0 else 1.0
    edges = t0 + cell * np.arange(n + 1)
    lines = [_axis(label_w, n, t0, t1, cell)]
    used: set[str] = set()
    groups = [(r, cat, ids) for r in rows for cat, ids in r.cells.items()]
    if groups:
        fill(edges, t0, t1, groups)
    for r in rows:
        busy = {}
        marks = np.zeros(n, bool)
        left = np.zeros(n, bool)
        right = np.zeros(n, bool)
        for cat, (st, en) in r.parts.items():
            st_a, en_a = np.sort(np.asarray(st, float)), np.sort(np.asarray(en, float))
            b = np.diff(_busy_at(st_a, en_a, edges))
            busy[cat] = b
            left |= _covered(st_a, en_a, edges[:-1], "left")
            right |= _covered(st_a, en_a, edges[1:], "right")
            zero = np.asarray(st, float)[np.asarray(st, float) == np.asarray(en, float)]
            if zero.size:
                idx = np.clip(((zero - t0) / cell).astype(int), 0, n - 1)
                marks[idx[(zero >= t0) & (zero <= t1)]] = True
        for cat, (b, lf, rt, mk) in r.cells.items():
            busy[cat] = b
            left |= lf
            right |= rt
            marks |= mk
        cats = list(busy)
        stack = np.vstack([busy[c] for c in cats])
        frac = np.minimum(stack.sum(0) / (cell * max(len(r.members), 1)), 1.0)
        dom = stack.argmax(0)
        single = len(r.members) == 1
        line = Text(r.label[-label_w:].ljust(label_w) + " │")
        for i in range(n):
            f = frac[i]
            if f <= 1e-9:
                line.append("·" if marks[i] else " ", style="grey50")
                continue
            cat = cats[dom[i]]
            used.add(cat)
            style = COLOURS[cat]
            k = int(round(f * 8))
            if f >= 0.97 or k >= 8:
                line.append("█", style=style)
            elif single and left[i] and not right[i]:
                line.append(EIGHTHS[max(k, 1)], style=style)
            elif single and right[i] and not left[i]:
                line.append(EIGHTHS[8 - max(k, 1)] if k < 7 else "▐", style=style + (" reverse" if k < 7 else ""))
            else:
                line.append(SHADES[min(2, int(f * 3))], style=style)
        line.append("│", style="dim")
        lines.append(line)
    lines.append(Text(" " * (label_w + 1) + "└" + "─" * n + "┘", style="dim"))
    legend = Text(" " * (label_w + 2))
    for cat in COLOURS:
        if cat in used:
            legend.append("█ ", style=COLOURS[cat])
            legend.append(cat + "  ")
    lines.append(legend)
    lines.append(Text(f"{' ' * (label_w + 2)}{fmt_time(t0)} .. {fmt_time(t1)}; one cell = {fmt_time(cell)}; "
                      "eighth blocks = span edges inside a cell, ░▒▓ = busy share of a busy cell, · = instant",
                      style="dim"))
    return lines


def _axis(label_w: int, n: int, t0: float, t1: float, cell: float) -> Text:
    step = _nice_step(t1 - t0, n)
    chars = [" "] * n
    ticks = ["─"] * n
    t = math.ceil(t0 / step) * step
    while t <= t1 + 1e-9:
        i = int(round((t - t0) / cell))
        lab = fmt_time(t)
        if i < n and all(c == " " for c in chars[i:i + len(lab) + 1]) and i + len(lab) <= n:
            chars[i:i + len(lab)] = lab
            ticks[i] = "┬"
        t += step
    return Text(" " * (label_w + 2) + "".join(chars) + "\n" + " " * (label_w + 1) + "┌" + "".join(ticks) + "┐",
                style="dim")


def view_lines(data: TraceData, width: int, tracks: Iterable[str] = ("streams", "cores"), collapse: bool = False,
               op_filter: str | None = None, window: tuple[float, float] | None = None) -> list[Text]:
    """The whole view of ``data`` (already clipped to ``window`` if one is given;
    ``window`` then fixes the time axis)."""
    rows = build_rows(data, tracks, collapse, op_filter)
    if not rows:
        return [Text("no spans to show")]
    lo = min(min([float(np.min(p[0])) for p in r.parts.values()] + [r.bounds[0]]) for r in rows)
    hi = max(max([float(np.max(p[1])) for p in r.parts.values()] + [r.bounds[1]]) for r in rows)
    if window is not None:
        lo = window[0] if math.isfinite(window[0]) else lo
        hi = window[1] if math.isfinite(window[1]) else hi
    cols = columns_of(data)
    fill = getattr(cols.pipes, "fill_cells", None) if cols is not None else None
    return render(rows, width, lo, hi, fill)
