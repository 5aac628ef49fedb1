"""Compact spans for big traces: pipe spans as numpy columns, not Span objects.

A trace of an npu-sim run at ``--trace-level pipes`` is mostly pipe spans (one
per tile stage of every pipe of every core). As :class:`~traces.records.Span`
records with an args dict each they take several hundred bytes apiece, more than
their JSON text. :class:`PipeColumns` keeps each one in 34 bytes: start and
duration (float64, ns), a track id (int32), name and cat ids (int32, int16), and
the two args npu-sim writes on pipe spans, ``tile`` (int32) and ``bytes`` (int64),
-1 when absent; a pipe span with any other args keeps its dict in a side table.

:class:`ColumnSpans` is what a streamed load puts in ``TraceData.spans``: the
other spans (host calls, stream tasks: few, with their args) as Span records, plus
the pipe columns. Iterating it yields every span in file order, building pipe
Span records on the fly, so every analysis works on it unchanged; the heavy ones
(engine busy, overlap, core spread, ``--by core``, ``view``) read the columns
directly with numpy (:func:`columns_of`). Times are ns.

(Over 300 lines on purpose: each analysis of the columns has a branch for the
bounded aggregates of :mod:`traces.bounded` next to it, so the two stay in step.)
"""
from __future__ import annotations

from array import array
from typing import Any, Iterator

import numpy as np

from .records import Span, finite
from .tracks import COMPUTE_PIPES, COPY_PIPES, GM_PIPES, parse_core_track

_NO = -1
#: the span args the summary, view and diff read (traces.kernels, analysis, groups,
#: intervals.task_type); a streamed load for those commands keeps only these
SUMMARY_ARG_KEYS = frozenset({"task_type", "block_dim", "tiling_key", "flops", "bytes", "gm_bytes", "hbm_bytes",
                              "l2_hit_bytes", "pipe_busy_ns", "core_ns", "compute_util", "memory_util", "bound"})
_PLAIN_KEYS = {("tile",), ("bytes",), ("tile", "bytes")}


class PipeColumns:
    """Growing columns of pipe spans (module docstring). ``tracks[i]`` is the
    (process, thread) of track id ``i`` (its Chrome (pid, tid) until :meth:`finish`)."""

    def __init__(self) -> None:
        self.start = array("d")
        self.dur = array("d")
        self.track = array("i")
        self.name = array("i")
        self.cat = array("h")
        self.tile = array("i")
        self.bytes = array("q")
        self.extra: dict[int, Any] = {}       # index -> args dict not made of tile/bytes ints
        self.tracks: list[Any] = []
        self._track_id: dict[Any, int] = {}
        self.names: list[str] = []
        self._name_id: dict[str, int] = {}
        self.cats: list[str] = []
        self._cat_id: dict[str, int] = {}

    def __len__(self) -> int:
        return len(self.start)

    def _intern(self, table: list, ids: dict, value) -> int:
        i = ids.get(value)
        if i is None:
            i = ids[value] = len(table)
            table.append(value)
        return i

    def add(self, track: Any, name: str, start_ns: float, dur_ns: float, cat: str, args: Any) -> None:
        """Append one span (``args``: None or its args dict)."""
        tile = nbytes = _NO
        if args:
            t, b = args.get("tile", _NO), args.get("bytes", _NO)
            if (tuple(args) in _PLAIN_KEYS and type(t) is int and type(b) is int
                    and (0 <= t < 2 ** 31 or "tile" not in args) and (b >= 0 or "bytes" not in args)):
                tile, nbytes = t, b
            else:
                self.extra[len(self.start)] = args
        elif args is not None:
            self.extra[len(self.start)] = args     # an empty dict stays an empty dict
        self.start.append(start_ns)
        self.dur.append(dur_ns)
        self.track.append(self._intern(self.tracks, self._track_id, track))
        self.name.append(self._intern(self.names, self._name_id, name))
        self.cat.append(self._intern(self.cats, self._cat_id, cat))
        self.tile.append(tile)
        self.bytes.append(nbytes)

    def args(self, i: int) -> dict | None:
        """The args dict of span ``i`` as it was in the trace."""
        if i in self.extra:
            return self.extra[i]
        t, b = self.tile[i], self.bytes[i]
        if t == _NO and b == _NO:
            return None
        out = {}
        if t != _NO:
            out["tile"] = t
        if b != _NO:
            out["bytes"] = b
        return out

    def finish(self, names: dict[Any, tuple[str, str]]) -> "PipeColumns":
        """Name the tracks (``names[(pid, tid)]``) and freeze the columns as numpy arrays."""
        self.tracks = [names[t] for t in self.tracks]
        for f in ("start", "dur", "track", "name", "cat", "tile", "bytes"):
            setattr(self, f, np.frombuffer(getattr(self, f), dtype=np.dtype(getattr(self, f).typecode)))
        return self

    def span(self, i: int) -> Span:
        return Span(self.tracks[self.track[i]], self.names[self.name[i]], float(self.start[i]),
                    float(self.dur[i]), self.cats[self.cat[i]], self.args(i))

    def select(self, keep: np.ndarray, start: np.ndarray | None = None, dur: np.ndarray | None = None) -> "PipeColumns":
        """A copy holding the spans where ``keep`` is True (optionally with new times)."""
        out = PipeColumns()
        out.tracks, out.names, out.cats = self.tracks, self.names, self.cats
        idx = np.flatnonzero(keep)
        for f in ("start", "dur", "track", "name", "cat", "tile", "bytes"):
            setattr(out, f, getattr(self, f)[idx])
        if start is not None:
            out.start, out.dur = start[idx], dur[idx]
        if self.extra:
            pos = {int(j): k for k, j in enumerate(idx)}
            out.extra = {pos[i]: a for i, a in self.extra.items() if i in pos}
        return out

    def track_core(self) -> list:
        """:func:`traces.tracks.parse_core_track` of each track id (None if not a core track)."""
        return [parse_core_track(t[1]) for t in self.tracks]


class ColumnSpans:
    """The spans of a streamed trace: ``kept`` Span records (``kept_pos[k]``: the
    position of kept span ``k`` among all spans) and ``pipes`` (:class:`PipeColumns`)
    for the rest. Iterates in file order; ``len`` counts both."""

    def __init__(self, kept: list[Span], kept_pos: np.ndarray, pipes: PipeColumns):
        self.kept, self.kept_pos, self.pipes = kept, kept_pos, pipes
        self._tracks: set | None = None

    def __len__(self) -> int:
        return len(self.kept) + len(self.pipes)

    def __bool__(self) -> bool:
        return len(self) > 0

    def __iter__(self) -> Iterator[Span]:
        kept, pos, pipes = self.kept, self.kept_pos, self.pipes
        k, n_kept, n = 0, len(kept), len(self)
        p = 0
        for i in range(n):
            if k < n_kept and pos[k] == i:
                yield kept[k]
                k += 1
            else:
                yield pipes.span(p)
                p += 1

    def tracks(self) -> set:
        """Every (process, thread) with a span (computed once)."""
        if self._tracks is None:
            ids = self.pipes.present() if is_aggregate(self.pipes) else np.unique(self.pipes.track)
            self._tracks = {s.track for s in self.kept} | {self.pipes.tracks[i] for i in ids}
        return self._tracks


def is_aggregate(pipes) -> bool:
    """Whether ``pipes`` is a :class:`traces.bounded.PipeAggregate` (no per-span columns)."""
    return hasattr(pipes, "unions")


def columns_of(data) -> ColumnSpans | None:
    """``data.spans`` if it is a :class:`ColumnSpans`, else None."""
    spans = getattr(data, "spans", None)
    return spans if isinstance(spans, ColumnSpans) else None


def plain_spans(data):
    """The spans an analysis of host and stream work needs: ``kept`` of a streamed
    trace (no pipe spans), else all of ``data.spans`` (callers filter further)."""
    cols = columns_of(data)
    return cols.kept if cols is not None else data.spans


def pipe_arrays(data, device: str | None = None):
    """(start, dur, track id, core tracks) of the pipe columns (ns; optionally of
    one device; ``core tracks[track id]`` is a :class:`~traces.tracks.CoreTrack` or
    None), or None for a plain trace. The columns themselves (no copy) when every
    pipe track is on ``device``."""
    cols = columns_of(data)
    if cols is None:
        return None
    p = cols.pipes
    if is_aggregate(p):
        return ("aggregate", p, device)
    cores = p.track_core()
    start, dur, tid = p.start, p.dur, p.track
    on = np.array([t[0] == device for t in p.tracks] or [False], bool)
    if device is not None and not on.all():
        m = on[tid]
        start, dur, tid = start[m], dur[m], tid[m]
    return start, dur, tid, cores


def merged(start: np.ndarray, end: np.ndarray, owned: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """The union of intervals [start, end) as sorted disjoint arrays (touching ones
    merge, as :func:`traces.intervals.union`). ``owned``: ``end`` may be overwritten."""
    if not len(start):
        return start[:0], end[:0]
    if len(start) > 1 and not np.all(start[1:] >= start[:-1]):    # file order is usually start order
        order = np.argsort(start, kind="stable")
        start, end = start[order], end[order]
        del order
    s = start
    reach = np.maximum.accumulate(end, out=end if owned else None)
    new = np.empty(len(s), bool)
    new[0] = True
    np.greater(s[1:], reach[:-1], out=new[1:])
    last = np.empty(len(s), bool)
    last[:-1] = new[1:]
    last[-1] = True
    return s[new], reach[last]


def merged_total(start: np.ndarray, end: np.ndarray) -> float:
    """Summed length of the union of intervals (ns)."""
    s, e = merged(start, end)
    return float((e - s).sum())


def span_bounds(data, device: str | None = None) -> tuple[float, float] | None:
    """(first start, last end) of every span (of ``device``'s process if given),
    None if there is none; vectorised on a streamed trace."""
    cols = columns_of(data)
    if cols is None:
        spans = [s for s in data.spans if device is None or s.track[0] == device]
        return (min(s.start_ns for s in spans), max(s.start_ns + s.dur_ns for s in spans)) if spans else None
    kept = [s for s in cols.kept if device is None or s.track[0] == device]
    lo = [min(s.start_ns for s in kept)] if kept else []
    hi = [max(s.start_ns + s.dur_ns for s in kept)] if kept else []
    if is_aggregate(cols.pipes):
        p = cols.pipes
        on = [i for i in p.present() if device is None or p.tracks[i][0] == device]
        if on:
            lo.append(float(p.first[on].min()))
            hi.append(float(p.last[on].max()))
        return (min(lo), max(hi)) if lo else None
    start, dur = pipe_arrays(data, device)[:2]
    if len(start):
        lo.append(float(start.min()))
        step = 1 << 20     # the last end, a chunk at a time (no array of all ends)
        hi.append(max(float((start[i:i + step] + dur[i:i + step]).max()) for i in range(0, len(start), step)))
    return (min(lo), max(hi)) if lo else None


def pipe_busy(arrays) -> dict[tuple[str, str], float]:
    """{(core type, pipe): summed busy ns} of :func:`pipe_arrays` (spans of zero
    length left out): each track's sum, then the tracks' sums in track order (the
    float sum may differ in its last bits from one loop over all spans)."""
    if arrays[0] == "aggregate":
        _, p, device = arrays
        cores = p.track_core()
        per_track = np.where([device is None or t[0] == device for t in p.tracks] or [False], p.busy, 0.0)
    else:
        start, dur, tid, cores = arrays
        per_track = np.bincount(tid, weights=dur, minlength=len(cores))   # each track's spans in file order
    out: dict[tuple[str, str], float] = {}
    for c, busy in zip(cores, per_track):
        if c is not None and busy > 0:     # durations are >= 0: a track with busy 0 has only instants
            out[(c.core_type, c.pipe)] = out.get((c.core_type, c.pipe), 0.0) + float(busy)
    return dict(sorted(out.items()))


def copy_compute(arrays) -> tuple[float, float, float]:
    """(copy, compute, both) ns of pipe columns (:func:`overlap` at the pipe level)."""
    if arrays[0] == "aggregate":
        cs, ce = arrays[1].union(arrays[2], "copy")
        ks, ke = arrays[1].union(arrays[2], "compute")
        return _copy_compute_of(cs, ce, ks, ke)
    start, dur, tid, cores = arrays
    kind_of = np.array([(1 if c.pipe in COPY_PIPES else 2 if c.pipe in COMPUTE_PIPES else 0) if c is not None else 0
                        for c in cores] or [0], np.int8)

    def union_of(kind: int):
        idx = np.flatnonzero((kind_of[tid] == kind) & (dur > 0))
        s = start[idx]
        e = dur[idx]
        del idx
        e += s
        return merged(s, e, owned=True)
    cs, ce = union_of(1)
    ks, ke = union_of(2)
    return _copy_compute_of(cs, ce, ks, ke)


def _copy_compute_of(cs, ce, ks, ke) -> tuple[float, float, float]:
    c, k = float((ce - cs).sum()), float((ke - ks).sum())
    either = merged_total(np.concatenate((cs, ks)), np.concatenate((ce, ke)))
    return c, k, max(c + k - either, 0.0)


def task_bytes_from_columns(cols: ColumnSpans, windows: dict) -> dict[int, float]:
    """``traces.analysis._task_bytes_from_pipes`` on the pipe columns of a streamed
    trace: ``windows[(device, name)]`` = sorted [(start, end, task index)]; each
    GM-pipe span of cat "pipe" with args adds its ``bytes`` to the task of its name
    whose window holds its start (the latest-starting one). Sums in file order."""
    p = cols.pipes
    if is_aggregate(p):
        return p.task_bytes(windows) if len(p) else {}
    if not len(p):
        return {}
    base = np.array([c is not None and c.pipe in GM_PIPES for c in p.track_core()], bool)[p.track]
    base &= np.array([c == "pipe" for c in p.cats], bool)[p.cat]
    has_args = (p.tile != _NO) | (p.bytes != _NO)
    for i, a in p.extra.items():
        has_args[i] = isinstance(a, dict)
    base &= has_args
    del has_args
    out: dict[int, float] = {}
    for (device, name), w in windows.items():
        if name not in p._name_id:
            continue
        on_dev = np.array([t[0] == device for t in p.tracks], bool)
        idx = np.flatnonzero(base & (p.name == p._name_id[name]) & on_dev[p.track])
        ws = np.array([x[0] for x in w])
        we = np.array([x[1] for x in w])
        wi = np.array([x[2] for x in w], np.int64)
        st = p.start[idx]
        j = np.searchsorted(ws, st, "right") - 1
        ok = (j >= 0) & (st <= we[np.maximum(j, 0)])
        idx, j = idx[ok], j[ok]
        nbytes = np.where(p.bytes[idx] != _NO, p.bytes[idx], 0).astype(np.float64)
        if p.extra:
            for n in np.flatnonzero(np.isin(idx, list(p.extra))):
                nbytes[n] = finite(p.extra[int(idx[n])].get("bytes"))
        sums = np.bincount(j, weights=nbytes, minlength=len(w))    # each task's spans in file order
        for k in np.unique(j):
            out[int(wi[k])] = float(sums[k])
    return out

