"""``npu-trace view --interactive``: the terminal timeline in a textual app.

Keys: ``left``/``right`` pan a fifth of the window, ``+``/``-`` zoom around the
cursor, ``up``/``down`` pick a row, ``,``/``.`` move the cursor one cell,
``enter`` show the span under the cursor (name, times, args), ``c`` jump to the
next segment of the critical path (:mod:`traces.critical`), ``r`` reset, ``q``
quit. Rows and cells are those of :mod:`traces.view`; textual is optional
(``pip install -e '.[trace]'``).
"""
from __future__ import annotations

import bisect
import json
from typing import Iterable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Footer, Static

from .critical import critical_path
from .load import TraceData
from .view import build_rows, fmt_time, render, row_key


class TraceApp(App):
    """Pan/zoom over the rows of ``data``; ``lo``/``hi`` (ns) is the visible window,
    ``cursor`` (ns) and ``row`` the selection, ``info`` the last status line."""

    BINDINGS = [("left", "pan(-0.2)", "pan"), ("right", "pan(0.2)", "pan"), ("plus,equals_sign", "zoom(2)", "zoom in"),
                ("minus", "zoom(0.5)", "zoom out"), ("up", "move_row(-1)", "row"), ("down", "move_row(1)", "row"),
                ("comma", "move_cursor(-1)", "cursor"), ("full_stop", "move_cursor(1)", "cursor"),
                ("enter", "select", "span"), ("c", "critical", "critical path"), ("r", "reset", "reset"),
                ("q", "quit", "quit")]

    def __init__(self, data: TraceData, tracks: Iterable[str] = ("streams", "cores"), collapse: bool = False,
                 op_filter: str | None = None):
        super().__init__()
        self.rows = build_rows(data, tracks, collapse, op_filter)
        kinds = set(tracks)
        by_label: dict[str, list] = {}
        for s in data.spans:
            k = row_key(s.track, kinds, collapse)
            if k and (not op_filter or op_filter.lower() in s.name.lower()):
                by_label.setdefault(k[1], []).append(s)
        self.spans = {lab: sorted(v, key=lambda s: s.start_ns) for lab, v in by_label.items()}
        self.starts = {lab: [s.start_ns for s in v] for lab, v in self.spans.items()}
        every = [s for v in self.spans.values() for s in v]
        self.t0 = min(s.start_ns for s in every) if every else 0.0
        self.t1 = max(s.start_ns + s.dur_ns for s in every) if every else 1.0
        self.lo, self.hi = self.t0, self.t1
        self.cursor, self.row = self.t0, 0
        self.path = [g for g in critical_path(data)["segments"] if g["kind"] != "idle"]
        self.path_i = -1
        self.info = "enter: span under the cursor   c: next critical-path segment"

    def compose(self) -> ComposeResult:
        yield Static(id="timeline")
        yield Static(id="info")
        yield Footer()

    def on_mount(self) -> None:
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def _width(self) -> int:
        return max(self.size.width, 40)

    def redraw(self) -> None:
        lines = render(self.rows, self._width(), self.lo, self.hi)
        if self.rows:
            label_w = min(max(len(r.label) for r in self.rows), 28)
            n = max(10, self._width() - label_w - 3)
            col = int((self.cursor - self.lo) / (self.hi - self.lo) * n) if self.hi > self.lo else 0
            sel = lines[1 + self.row]
            sel.stylize("reverse", 0, label_w)
            if 0 <= col < n:
                for line in lines[1:1 + len(self.rows)]:
                    line.stylize("on grey30", label_w + 2 + col, label_w + 3 + col)
        body = Text("\n").join(lines)
        self.query_one("#timeline", Static).update(body)
        self.query_one("#info", Static).update(Text(f"cursor {fmt_time(self.cursor)}  window {fmt_time(self.lo)}"
                                                    f" .. {fmt_time(self.hi)}  |  {self.info}"))

    def action_pan(self, frac: float) -> None:
        d = (self.hi - self.lo) * frac
        self.lo, self.hi, self.cursor = self.lo + d, self.hi + d, self.cursor + d
        self.redraw()

    def action_zoom(self, factor: float) -> None:
        c = min(max(self.cursor, self.lo), self.hi)
        self.lo, self.hi = c - (c - self.lo) / factor, c + (self.hi - c) / factor
        self.redraw()

    def action_move_row(self, step: int) -> None:
        self.row = min(max(self.row + step, 0), max(len(self.rows) - 1, 0))
        self.redraw()

    def action_move_cursor(self, cells: int) -> None:
        self.cursor += cells * (self.hi - self.lo) / max(self._width() - 31, 10)
        self.redraw()

    def span_at(self, label: str, t: float):
        """The span of row ``label`` that holds time ``t`` (the latest-starting one), or None."""
        v, st = self.spans.get(label, []), self.starts.get(label, [])
        i = bisect.bisect_right(st, t) - 1
        for j in range(i, max(i - 256, -1), -1):     # nested slices: a parent starts before its children
            if v[j].start_ns + v[j].dur_ns >= t:
                return v[j]
        return None

    def action_select(self) -> None:
        if not self.rows:
            return
        s = self.span_at(self.rows[self.row].label, self.cursor)
        if s is None:
            self.info = "no span under the cursor"
        else:
            args = json.dumps(s.args, default=str)[:300] if s.args else "{}"
            self.info = (f"{s.name} on {s.track[0]} / {s.track[1]}: {fmt_time(s.start_ns)} + "
                         f"{fmt_time(s.dur_ns)}  args {args}")
        self.redraw()

    def action_critical(self) -> None:
        if not self.path:
            return
        self.path_i = (self.path_i + 1) % len(self.path)
        g = self.path[self.path_i]
        pad = max(g["dur_ns"], 1.0) * 2
        self.lo, self.hi, self.cursor = g["start_ns"] - pad, g["end_ns"] + pad, (g["start_ns"] + g["end_ns"]) / 2
        self.info = (f"critical path {self.path_i + 1}/{len(self.path)}: {g['kind']} {g['name']} on {g['track']}, "
                     f"{fmt_time(g['dur_ns'])}")
        self.redraw()

    def action_reset(self) -> None:
        self.lo, self.hi = self.t0, self.t1
        self.redraw()
