"""Bounded-memory pipe aggregates for ``npu-trace summary`` on big traces.

:class:`PipeAggregate` takes the place of :class:`traces.columns.PipeColumns` in a
streamed load (:func:`traces.load.events_to_data`'s ``sink``): pipe spans are
buffered :data:`SPAN_CHUNK` at a time and folded into what the summary reads, then
dropped, so memory is a constant per track plus the merged busy intervals:

* per track: span count, summed duration (each track's spans in file order, as
  one ``np.bincount`` over all spans would sum them: the running sum is prepended
  to each chunk), first start, last end, shortest and longest span;
* per (process, copy|compute): the union of busy intervals (spans of length > 0),
  merged chunk by chunk (few intervals while the device is busy);
* per (process, core), only with ``core_unions``: the union of the core's pipes
  (``--by core``).

``window`` = (lo, hi) clips the spans as :func:`traces.window.clip` does, before
they are folded in. The result equals the one of the columns (tests/traces/test_big.py).
Times are ns.
"""
from __future__ import annotations

from array import array
from typing import Any

import numpy as np

from .tracks import COMPUTE_PIPES, COPY_PIPES, parse_core_track

#: pipe spans buffered before they are folded into the aggregates
SPAN_CHUNK = 1 << 18


def merge_into(prev: tuple[np.ndarray, np.ndarray] | None, s: np.ndarray, e: np.ndarray):
    """The union of the disjoint sorted intervals ``prev`` and [s, e) (sorted, disjoint)."""
    from .columns import merged
    if prev is not None:
        s, e = np.concatenate((prev[0], s)), np.concatenate((prev[1], e))
    return merged(s, e, owned=True)


class PipeAggregate:
    """The sink of pipe spans (module docstring). After :meth:`finish`, ``tracks[i]``
    is the (process, thread) of track id ``i`` (ids in order of first span)."""

    def __init__(self, window: tuple[float, float] | None = None, core_unions: bool = False,
                 name_filter: str | None = None):
        self.window, self.core_unions = window, core_unions
        self.want = name_filter.lower() if name_filter else None
        self._name_ok: dict[str, bool] = {}
        self._buf = [array("d"), array("d"), array("i")]
        self.tracks: list[Any] = []
        self._track_id: dict[Any, int] = {}
        self.count = np.zeros(0, np.int64)
        self.busy = np.zeros(0)
        self.first = np.zeros(0)
        self.last = np.zeros(0)
        self.dmin = np.zeros(0)
        self.dmax = np.zeros(0)
        self.unions: dict[tuple, tuple] = {}      # (pid, "copy"|"compute") -> (starts, ends)
        self.core_iv: dict[tuple, tuple] = {}     # (pid, core) -> (starts, ends)
        self.n = 0
        self.threads: dict = {}     # (pid, tid) -> thread name, bound by the loader (core tracks are named first)

    def bind(self, threads: dict) -> None:
        """The loader's live (pid, tid) -> thread name table."""
        self.threads = threads

    def __len__(self) -> int:
        return self.n

    def add(self, track: Any, name: str, start_ns: float, dur_ns: float, cat: str, args: Any) -> None:
        i = self._track_id.get(track)
        if i is None:
            i = self._track_id[track] = len(self.tracks)
            self.tracks.append(track)
        if self.want is not None:
            ok = self._name_ok.get(name)
            if ok is None:
                ok = self._name_ok[name] = self.want in name.lower()
            if not ok:
                return
        b = self._buf
        b[0].append(start_ns)
        b[1].append(dur_ns)
        b[2].append(i)
        if len(b[2]) >= SPAN_CHUNK:
            self._flush()

    def _grow(self) -> None:
        n, old = len(self.tracks), len(self.count)
        if n == old:
            return
        pad = n - old
        self.count = np.concatenate((self.count, np.zeros(pad, np.int64)))
        self.busy = np.concatenate((self.busy, np.zeros(pad)))
        self.first = np.concatenate((self.first, np.full(pad, np.inf)))
        self.last = np.concatenate((self.last, np.full(pad, -np.inf)))
        self.dmin = np.concatenate((self.dmin, np.full(pad, np.inf)))
        self.dmax = np.concatenate((self.dmax, np.full(pad, -np.inf)))

    def _take(self):
        """The buffered chunk as (start, dur, track id) arrays, clipped to the window; None if empty."""
        s, d, t = (np.frombuffer(a, dtype=np.dtype(a.typecode)).copy() for a in self._buf)
        self._buf = [array("d"), array("d"), array("i")]
        if not len(s):
            return None
        return _clip(s, d, t, self.window) if self.window is not None else (s, d, t)

    def _flush(self) -> None:
        chunk = self._take()
        if chunk is None:
            return
        s, d, t = chunk
        self._grow()
        nt = len(self.tracks)
        self.n += len(s)
        self.count += np.bincount(t, minlength=nt)
        # the running sums first: each track's sum goes on in file order
        self.busy = np.bincount(np.concatenate((np.arange(nt), t)), weights=np.concatenate((self.busy, d)),
                                minlength=nt)
        e = s + d
        np.minimum.at(self.first, t, s)
        np.maximum.at(self.last, t, e)
        np.minimum.at(self.dmin, t, d)
        np.maximum.at(self.dmax, t, d)
        cores = [parse_core_track(self.threads.get(tr, "")) for tr in self.tracks]
        kind = np.array([(1 if c.pipe in COPY_PIPES else 2 if c.pipe in COMPUTE_PIPES else 0) if c else 0
                         for c in cores], np.int8)
        pids = sorted({tr[0] for tr in self.tracks}, key=str)
        pid_of = np.array([pids.index(tr[0]) for tr in self.tracks], np.int64)
        tk, tp = kind[t], pid_of[t]
        pos = d > 0
        for p, pid in enumerate(pids):
            on = tp == p
            for k, label in ((1, "copy"), (2, "compute")):
                m = on & pos & (tk == k)
                if m.any():
                    key = (pid, label)
                    self.unions[key] = merge_into(self.unions.get(key), s[m], e[m])
        if self.core_unions:
            names = sorted({(tr[0], c.core) for tr, c in zip(self.tracks, cores) if c}, key=str)
            gid = {k: g for g, k in enumerate(names)}
            group = np.array([gid[(tr[0], c.core)] if c else -1 for tr, c in zip(self.tracks, cores)], np.int64)
            g = group[t]
            for j in np.unique(g):
                if j >= 0:
                    m = g == j
                    self.core_iv[names[j]] = merge_into(self.core_iv.get(names[j]), s[m], e[m])

    def finish(self, names: dict[Any, tuple[str, str]]) -> "PipeAggregate":
        """Fold the last chunk in and name the tracks (``names[(pid, tid)]``)."""
        self._flush()
        self._grow()
        self.pid_names = {tr[0]: names[tr][0] for tr in self.tracks}
        self.tracks = [names[t] for t in self.tracks]
        return self

    def track_core(self) -> list:
        """:func:`traces.tracks.parse_core_track` of each track id."""
        return [parse_core_track(t[1]) for t in self.tracks]

    def present(self) -> np.ndarray:
        """Track ids with at least one span (after the window)."""
        return np.flatnonzero(self.count > 0)

    def union(self, device: str, label: str) -> tuple[np.ndarray, np.ndarray]:
        """The merged busy intervals of ``label`` ("copy" | "compute") on ``device``."""
        parts = [v for (pid, lab), v in self.unions.items() if lab == label and self.pid_names.get(pid) == device]
        if len(parts) == 1:
            return parts[0]
        s = np.concatenate([p[0] for p in parts]) if parts else np.zeros(0)
        e = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0)
        return merge_into(None, s, e) if len(s) else (s, e)

    def core_union(self, device: str, core: str) -> tuple[np.ndarray, np.ndarray]:
        parts = [v for (pid, c), v in self.core_iv.items() if c == core and self.pid_names.get(pid) == device]
        if len(parts) == 1:
            return parts[0]
        s = np.concatenate([p[0] for p in parts])
        e = np.concatenate([p[1] for p in parts])
        return merge_into(None, s, e)


class CellSink(PipeAggregate):
    """The second pass of a bounded ``npu-trace view``: each chunk of pipe spans adds
    its busy time per cell, and its edge and instant flags, to its (row, category)
    (``group[track id]``, -1 for a track not shown), as :func:`traces.view.render`
    computes them from all spans at once. ``cells[g]`` = [busy, left, right, marks]."""

    def __init__(self, window, name_filter, group: list[int], n_groups: int, edges: np.ndarray,
                 t0: float, t1: float):
        super().__init__(window, False, name_filter)
        self.group, self.edges, self.t0, self.t1 = np.array(group + [-1], np.int64), edges, t0, t1
        n = len(edges) - 1
        self.cells = [[np.zeros(n), np.zeros(n, bool), np.zeros(n, bool), np.zeros(n, bool)]
                      for _ in range(n_groups)]

    def _flush(self) -> None:
        from .view import _busy_at, _covered
        chunk = self._take()
        if chunk is None:
            return
        s, d, t = chunk
        g = self.group[np.minimum(t, len(self.group) - 1)]
        edges, t0, t1 = self.edges, self.t0, self.t1
        n = len(edges) - 1
        cell = (t1 - t0) / n if t1 > t0 else 1.0
        for j in np.unique(g):
            if j < 0:
                continue
            m = g == j
            st, en = s[m], s[m] + d[m]
            st_a, en_a = np.sort(st), np.sort(en)
            c = self.cells[j]
            c[0] += np.diff(_busy_at(st_a, en_a, edges))
            c[1] |= _covered(st_a, en_a, edges[:-1], "left")
            c[2] |= _covered(st_a, en_a, edges[1:], "right")
            zero = st[st == en]
            if zero.size:
                idx = np.clip(((zero - t0) / cell).astype(int), 0, n - 1)
                c[3][idx[(zero >= t0) & (zero <= t1)]] = True


def _clip(s, d, t, window):
    lo, hi = window
    e = s + d
    keep = ~((e < lo) | (s > hi) | ((d > 0) & ((e <= lo) | (s >= hi))))
    a, b = np.maximum(s, lo), np.minimum(e, hi)
    cut = (a != s) | (b != e)
    return np.where(cut, a, s)[keep], np.where(cut, b - a, d)[keep], t[keep]
