"""The bounded-memory load of a big trace for ``npu-trace summary``: pipe spans
are folded into :class:`traces.bounded.PipeAggregate` while the file streams, so
only the task and host spans (few) are kept whole.

A ``--phase`` window is known only once the kernels are read: the file is then
streamed twice (the first pass finds the window, the second folds the pipe spans
clipped to it). ``--window`` alone is clipped in the one pass. The kernel bytes of
an old trace (kernels without ``bytes``/``gm_bytes`` args, so read from their GM
pipe spans) take one more pass. The file is re-read, never held.
"""
from __future__ import annotations

import bisect
from pathlib import Path
from typing import Any

from .bounded import CellSink, PipeAggregate
from .columns import SUMMARY_ARG_KEYS
from .load import TraceData
from .records import finite
from .stream_load import load_trace
from .tracks import GM_PIPES, parse_core_track
from .window import parse_window, phase_window


class _TaskBytes:
    """A pipe-span sink summing the ``bytes`` of GM pipe spans into the kernel
    task whose window holds their start (as ``traces.columns.task_bytes_from_columns``)."""

    def __init__(self, windows: dict, names: dict):
        self.windows, self.names, self.out = windows, names, {}
        self.starts = {k: [w[0] for w in v] for k, v in windows.items()}

    def __len__(self) -> int:
        return 0

    def add(self, track: Any, name: str, start_ns: float, dur_ns: float, cat: str, args: Any) -> None:
        if cat != "pipe" or not isinstance(args, dict):
            return
        proc, thread = self.names.get(track, (None, ""))
        ct = parse_core_track(thread)
        key = (proc, name)
        if ct is None or ct.pipe not in GM_PIPES or key not in self.windows:
            return
        j = bisect.bisect_right(self.starts[key], start_ns) - 1
        if j >= 0 and start_ns <= self.windows[key][j][1]:
            i = self.windows[key][j][2]
            self.out[i] = self.out.get(i, 0.0) + finite(args.get("bytes"))

    def finish(self, names: dict) -> "_TaskBytes":
        return self

    tracks: list = []

    def present(self):
        return []

    unions: dict = {}


def _load(path: Path, window, core_unions: bool, name_filter: str | None = None) -> TraceData:
    agg = PipeAggregate(window, core_unions, name_filter)
    data = load_trace(path, stream=True, keep_args=SUMMARY_ARG_KEYS, sink=agg)
    raw_names = dict(zip(agg._track_id, agg.tracks))

    def task_bytes(windows: dict) -> dict:
        sink = _TaskBytes(windows, raw_names)
        load_trace(path, stream=True, keep_args=frozenset(), sink=sink)
        return sink.out
    agg.task_bytes = task_bytes

    def fill_cells(edges, t0: float, t1: float, groups: list) -> None:
        group = [-1] * len(agg.tracks)
        for g, (_row, _cat, ids) in enumerate(groups):
            for i in ids:
                group[i] = g
        sink = CellSink(window, name_filter, group, len(groups), edges, t0, t1)
        load_trace(path, stream=True, keep_args=frozenset(), sink=sink)
        for (row, cat, _ids), cells in zip(groups, sink.cells):
            row.cells[cat] = cells
    agg.fill_cells = fill_cells
    return data


def load_bounded(path: str | Path, window: str | None = None, phase: str = "all",
                 core_unions: bool = False, name_filter: str | None = None) -> TraceData:
    """The trace at ``path`` with its pipe spans aggregated (module docstring;
    ``name_filter``: only pipe spans whose name holds it, as ``view --filter``),
    ready for :func:`traces.window.select` with the same ``window`` and ``phase``.
    Raises ValueError for a bad window or phase, TraceLoadError for a bad file."""
    w = parse_window(window) if isinstance(window, str) else window
    data = _load(Path(path), w if phase == "all" else None, core_unions, name_filter)
    if phase == "all":
        return data
    p = phase_window(data, phase)
    if p is not None and w is not None:
        w = (max(w[0], p[0]), min(w[1], p[1]))
        if not w[1] > w[0]:
            raise ValueError("--window and --phase do not intersect")
    w = w if w is not None else p
    return data if w is None else _load(Path(path), w, core_unions, name_filter)
