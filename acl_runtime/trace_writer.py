"""The fast path of the Chrome/Perfetto trace writer: the bytes
``traces.chrome_trace.write_chrome_trace`` writes, several times faster.

The reference writer builds one dict per event (its args passed through
``json_safe``), checks that no two spans of one track overlap (a Python loop over
every event) and writes with ``json.dump(obj, f)``, which always takes the
pure-Python encoder (1.6 M small writes for light ResNet-50). This module:

* builds the "X" events' JSON text column by column (:func:`_x_block`), not event
  by event: the head (name, cat, pid, tid) once per distinct (name, cat, track),
  the times as ``repr`` of the same floats (``start_ns / 1000.0``, computed
  vectorised; ``json`` writes floats with ``float.__repr__``) once per distinct
  value, a pipe span's ``{"tile", "bytes"}`` args once per distinct pair, any other
  args dict encoded once per dict object (without ``json_safe`` when it holds only
  plain JSON values, :func:`_plain`); the pieces are gathered with numpy and joined
  once (light ResNet-50 eager: 64,000 spans, 62,000 of them pipe spans, 24,500
  distinct start times, 5,000 distinct durations);
* orders spans with a stable numpy argsort on the same keys (``sorted`` is stable);
* runs the overlap check once, vectorised per track (:func:`overlapping`); when it
  finds an overlap, or a time is not finite, or a span is not a plain record, it
  defers to ``traces.chrome_trace`` so the error is the reference one;
* joins the event texts and writes them with one ``f.write``;
* pauses Python's cyclic garbage collector while it builds (``npu_sim.host_gc.gc_paused``): the
  build makes tens of thousands of tuples, lists and strings (no reference cycles),
  which set off full collections over the whole process heap (20-25 ms of a 75 ms
  trace phase, light ResNet-50 full run, measured).

``tests/perf/test_trace_fast_paths.py`` and ``tests/acl_runtime/test_trace_writer_columns.py``
(a small model's run, graph and eager, pipes level with flows and counters) compare
the bytes with the reference writer.

(Over 300 lines: the fast build and the fallback rules it must mirror are one piece.)
"""
from __future__ import annotations

import gzip
import json
from operator import itemgetter
from pathlib import Path
from typing import Any

import numpy as np

from npu_sim.host_gc import gc_paused

_DUMPS = json.JSONEncoder(allow_nan=False, separators=(",", ":")).encode   # as write_chrome_trace's json.dump


class _Fallback(Exception):
    """Something the fast path does not handle: build the trace the reference way."""


def _overlap_arrays(track: np.ndarray, ts: np.ndarray, dur: np.ndarray, tolerance_us: float) -> bool:
    """True when two spans of one track (int ids) overlap by more than ``tolerance_us``
    (times in us): the rule of ``traces.chrome_trace.check_no_overlap`` (sorted by
    (ts, dur), each start compared with the running maximum end of the track's
    earlier spans)."""
    if len(track) < 2:
        return False
    order = np.lexsort((dur, ts, track))
    track, ts, end = track[order], ts[order], ts[order] + dur[order]
    same = track[1:] == track[:-1]
    if np.all(end[1:][same] >= end[:-1][same]):   # ends rise within each track: the running max is the last end
        return bool(np.any(ts[1:][same] < end[:-1][same] - tolerance_us))
    bounds = np.flatnonzero(np.diff(track)) + 1
    for lo, hi in zip(np.r_[0, bounds], np.r_[bounds, len(track)]):
        if hi - lo < 2:
            continue
        run = np.maximum.accumulate(end[lo:hi - 1])
        if np.any(ts[lo + 1:hi] < run - tolerance_us):
            return True
    return False


def overlapping(events: list[dict], tolerance_us: float) -> bool:
    """True when two "X" events of one (pid, tid) overlap by more than
    ``tolerance_us`` (us), as ``traces.chrome_trace.check_no_overlap`` decides."""
    xs = [(ev.get("pid"), ev.get("tid"), float(ev["ts"]), float(ev.get("dur", 0.0))) for ev in events if ev.get("ph") == "X"]
    keys: dict[tuple, int] = {}
    track = np.fromiter((keys.setdefault((p, t), len(keys)) for p, t, _, _ in xs), np.int64, len(xs))
    ts = np.fromiter((x[2] for x in xs), np.float64, len(xs))
    dur = np.fromiter((x[3] for x in xs), np.float64, len(xs))
    return _overlap_arrays(track, ts, dur, tolerance_us)


def _args_text(a, cache: dict) -> str:
    """The JSON of a span's ``json_safe(args)``: a pipe span's ``{"tile": int[, "bytes":
    int]}`` formatted directly, another dict encoded once per object (``cache``)."""
    if type(a) is dict and len(a) <= 2:
        t = a.get("tile")
        if type(t) is int:
            if len(a) == 1:
                return '{"tile":%d}' % t
            b = a.get("bytes")
            if type(b) is int and next(iter(a)) == "tile":
                return '{"tile":%d,"bytes":%d}' % (t, b)
    txt = cache.get(id(a))
    if txt is None:
        if _plain(a):       # json_safe would return an equal dict: the same text
            txt = _DUMPS(a)
        else:
            from traces.chrome_trace import json_safe
            txt = _DUMPS(json_safe(a))
        cache[id(a)] = txt
    return txt


_SCALARS = (str, int, bool, type(None))


def _plain(v) -> bool:
    """True when ``v`` holds only what ``traces.chrome_trace.json_safe`` returns as an
    equal value that encodes to the same JSON: str, int, bool, None and finite float
    leaves (exact types, no subclasses), in dicts with str keys, lists and tuples
    (a tuple encodes as a list either way)."""
    t = type(v)
    if t in _SCALARS:
        return True
    if t is float:
        return v - v == 0.0          # finite (inf - inf and nan - nan are nan)
    if t is dict:
        return all(type(k) is str for k in v) and all(map(_plain, v.values()))
    if t is list or t is tuple:
        return all(map(_plain, v))
    return False


def _texts_by_value(values: np.ndarray, fmt) -> np.ndarray:
    """``fmt(v)`` of each row of ``values`` (1-d, or 2-d: one tuple per row) as an
    object array, with ``fmt`` called once per distinct value (exact: float64 values
    are compared by their bits, so 0.0 and -0.0 stay apart)."""
    if len(values) == 0:
        return np.empty(0, object)
    keys = values.view(np.int64) if values.dtype == np.float64 else values
    uniq, inv = np.unique(keys, return_inverse=True, axis=0 if values.ndim == 2 else None)
    if values.dtype == np.float64:
        uniq = uniq.view(np.float64)
    out = np.empty(len(uniq), object)
    out[:] = [fmt(v) for v in uniq.tolist()]
    return out[inv.reshape(-1)]


def _pipe_args(tb) -> str:
    t, b = tb
    return ',"args":{"tile":%d,"bytes":%d}},' % (t, b) if b else ',"args":{"tile":%d}},' % t


def _x_block(ents: list, order: np.ndarray, ts_us: np.ndarray, dur_us: np.ndarray, pids: dict, tids: dict,
             flow_out: dict, flow_in: dict) -> tuple[str, np.ndarray]:
    """The "X" events of ``ents`` (pipe 6-tuples and span 8-tuples, see
    ``npu_sim.trace.TraceRecorder.entries``) in start order (``order``) as one text,
    comma-separated, and each entry's track number (by entry index, for the overlap
    check); notes each flow end's (pid, tid, ts) in ``flow_out`` / ``flow_in`` (the
    first span of a flow id on each side, as the reference writer keeps).

    Built per column, not per event: an event is four pieces -- its head (name, cat,
    pid, tid and ``"ts":``, made once per distinct (name, cat, track)), its ts and
    ``,"dur":``, its dur, its args and closing -- each made once per distinct value
    (:func:`_texts_by_value`; ``json`` writes floats with ``float.__repr__``, of the
    same floats here; a pipe span's ``{"tile", "bytes"}`` once per distinct pair),
    gathered with numpy and joined once. Only spans other than pipe spans (host
    calls, stream tasks: their args dicts and flows) take a Python step each. Raises
    TypeError for an unhashable name or track (the caller falls back)."""
    n = len(ents)
    sents = list(map(ents.__getitem__, order.tolist()))
    is_pipe = np.fromiter(map(len, sents), np.int8, n) == 6
    tracks = list(map(itemgetter(0), sents))
    keys: list = list(zip(map(itemgetter(1), sents), tracks))    # a pipe span's head key: (name, track)
    span_at = np.flatnonzero(~is_pipe).tolist()
    for i in span_at:                                            # another span's: (name, cat, track)
        e = sents[i]
        keys[i] = (e[1], e[4], e[0])
    key_no = {k: j for j, k in enumerate(dict.fromkeys(keys))}
    track_no = {t: j for j, t in enumerate(dict.fromkeys(tracks))}
    heads, head_pid, head_tid, head_track = [], [], [], []
    for key in key_no:
        name, cat, track = key if len(key) == 3 else (key[0], "pipe", key[1])
        pid, tid = pids[track[0]], tids[track]
        heads.append(f'{{"ph":"X","name":{_DUMPS(str(name))},"cat":{_DUMPS(str(cat))},"pid":{pid},"tid":{tid},"ts":')
        head_pid.append(pid)
        head_tid.append(tid)
        head_track.append(track_no[track])
    hidx = np.fromiter(map(key_no.__getitem__, keys), np.int64, n)
    ts_s = ts_us[order]
    cols = np.empty((n, 4), object)
    head_text = np.empty(len(heads), object)
    head_text[:] = heads
    cols[:, 0] = head_text[hidx]
    cols[:, 1] = _texts_by_value(ts_s, lambda v: repr(v) + ',"dur":')
    cols[:, 2] = _texts_by_value(dur_us[order], repr)
    pipe_at = np.flatnonzero(is_pipe)
    args_cache: dict[int, str] = {}
    if len(pipe_at):
        pe = list(map(sents.__getitem__, pipe_at.tolist()))
        tile, nbytes = list(map(itemgetter(4), pe)), list(map(itemgetter(5), pe))
        if set(map(type, tile)) | set(map(type, nbytes)) <= {int}:
            pairs = list(zip(tile, nbytes))
            text = {tb: _pipe_args(tb) for tb in dict.fromkeys(pairs)}   # once per distinct (tile, bytes)
            cols[pipe_at, 3] = list(map(text.__getitem__, pairs))
        else:   # a tile or a byte count that is not a plain int: its args dict, as the reference builds it
            for i, t, b in zip(pipe_at.tolist(), tile, nbytes):
                cols[i, 3] = f',"args":{_args_text({"tile": t, "bytes": b} if b else {"tile": t}, args_cache)}}},'
    for i in span_at:
        e = sents[i]
        cols[i, 3] = f',"args":{_args_text(e[5], args_cache)}}},' if e[5] else "},"
        fid = e[6]
        if fid is not None:
            side = flow_out if e[7] else flow_in
            fid = fid if isinstance(fid, (int, str)) else int(fid)
            h = hidx[i]
            side.setdefault(fid, (head_pid[h], head_tid[h], float(ts_s[i])))
    track_of = np.empty(n, np.int64)
    track_of[order] = np.array(head_track + [0], np.int64)[hidx]
    return "".join(cols.ravel().tolist())[:-1], track_of


def _counter_texts(counters: list, pid_of: dict) -> list[str]:
    """The "C" events of ``counters`` (``npu_sim.trace.Counter``: track, name, ts_ns,
    value) in time order (a stable sort, as the reference), the JSON of each
    ``{"ph": "C", "name": track, "pid": pid_of[track], "ts": ts_ns / 1000, "args":
    {name: json_safe(value)}}``: the head once per (track, name), a plain int or
    finite float value written as ``json`` writes it, anything else through
    ``json_safe``. Raises _Fallback for a time that is not finite."""
    from traces.chrome_trace import json_safe
    heads: dict = {}
    out = []
    for c in sorted(counters, key=lambda c: float(c.ts_ns)):
        ts = float(c.ts_ns)
        if ts - ts != 0.0:
            raise _Fallback
        key = (c.track, c.name)
        h = heads.get(key)
        if h is None:
            h = heads[key] = (f'{{"ph":"C","name":{_DUMPS(str(c.track))},"pid":{pid_of[c.track]},"ts":',
                              f',"args":{{{_DUMPS(str(c.name))}:')
        v = c.value
        t = type(v)
        v = repr(v) if (t is float and v - v == 0.0) or t is int else _DUMPS(json_safe(v))
        out.append(f"{h[0]}{ts / 1000.0!r}{h[1]}{v}}}}}")
    return out


def _source_entries(source: Any) -> tuple[list, list, dict]:
    """``(entries, counters, metadata)`` of a trace source: its ``trace_entries()``
    when it has one (``acl_runtime.profiler.Profiler``: no ``Span`` objects built),
    else its ``trace_records()`` spans as 8-tuples. Raises _Fallback for a source of
    neither kind, an entry that is not a 6- or 8-tuple, or a span that is not a
    plain record."""
    from traces.records import is_span_record
    if hasattr(source, "trace_entries"):
        ents, counters, meta = source.trace_entries()
        if ents and not (set(map(type, ents)) == {tuple} and set(map(len, ents)) <= {6, 8}):
            raise _Fallback
        return ents, list(counters or ()), meta
    if not hasattr(source, "trace_records"):
        raise _Fallback
    spans, counters, meta = source.trace_records()
    spans = list(spans)
    plain = {type(s) for s in spans}
    if not all(is_span_record(s) for s in (next(s for s in spans if type(s) is t) for t in plain)):
        raise _Fallback
    ents = [(s.track, s.name, s.start_ns, s.dur_ns, s.cat, s.args, s.flow_id, s.flow_out) for s in spans]
    return ents, list(counters or ()), meta


def _fast_text(source: Any, metadata: dict | None) -> str:
    """The JSON text of ``to_chrome_trace(source, metadata=metadata, validate=True)``
    for a ``trace_records()`` producer; raises _Fallback where it cannot be sure."""
    from traces.chrome_trace import GENERATOR, OVERLAP_TOLERANCE_US, _counter_pid, json_safe
    from traces.tracks import assign_ids
    spans, counters, own_meta = _source_entries(source)
    meta: dict[str, Any] = dict(own_meta or {})
    if metadata:
        meta.update(metadata)
    n = len(spans)
    try:
        start = np.fromiter(map(itemgetter(2), spans), np.float64, n)
        dur = np.fromiter(map(itemgetter(3), spans), np.float64, n)
    except (TypeError, ValueError):
        raise _Fallback from None
    ts_us, dur_us = start / 1000.0, dur / 1000.0
    if not (np.isfinite(ts_us).all() and np.isfinite(dur_us).all() and (dur_us >= 0).all()):
        raise _Fallback
    ids = assign_ids(map(itemgetter(0), spans))
    counter_home = {t: _counter_pid(t, ids.pids) for t in {c.track for c in counters}}
    if set(counter_home.values()) - set(ids.pids):
        ids = assign_ids(map(itemgetter(0), spans), extra_processes=counter_home.values())
    pids, tids = ids.pids, ids.tids
    parts: list[str] = []
    for proc, pid in pids.items():
        parts.append(_DUMPS({"ph": "M", "name": "process_name", "pid": pid, "tid": 0, "args": {"name": proc}}))
        parts.append(_DUMPS({"ph": "M", "name": "process_sort_index", "pid": pid, "tid": 0,
                             "args": {"sort_index": pid}}))
    for track, tid in tids.items():
        pid = pids[track[0]]
        parts.append(_DUMPS({"ph": "M", "name": "thread_name", "pid": pid, "tid": tid, "args": {"name": track[1]}}))
        parts.append(_DUMPS({"ph": "M", "name": "thread_sort_index", "pid": pid, "tid": tid,
                             "args": {"sort_index": ids.thread_rank[track]}}))
    order = np.argsort(start, kind="stable")
    flow_out: dict = {}
    flow_in: dict = {}
    try:
        x_text, track_of = _x_block(spans, order, ts_us, dur_us, pids, tids, flow_out, flow_in)
    except TypeError:       # e.g. an unhashable name: the reference build decides
        raise _Fallback from None
    if n:
        parts.append(x_text)
    if _overlap_arrays(track_of, ts_us, dur_us, OVERLAP_TOLERANCE_US):
        raise _Fallback
    parts += _counter_texts(counters, {t: pids[h] for t, h in counter_home.items()})
    for fid in sorted(flow_out.keys() & flow_in.keys(), key=lambda f: (isinstance(f, str), f)):
        (sp, st, sts), (dp, dt, dts) = flow_out[fid], flow_in[fid]
        i = fid if type(fid) is int else _DUMPS(fid)
        parts.append(f'{{"ph":"s","id":{i},"name":"launch","cat":"flow","pid":{sp},"tid":{st},"ts":{sts!r}}}')
        parts.append(f'{{"ph":"f","bp":"e","id":{i},"name":"launch","cat":"flow","pid":{dp},"tid":{dt},"ts":{dts!r}}}')
    other = {"generator": GENERATOR}
    other.update(json_safe(meta))
    return f'{{"traceEvents":[{",".join(parts)}],"displayTimeUnit":"ns","otherData":{_DUMPS(other)}}}'


def chrome_trace_text(source: Any, metadata: dict | None = None) -> str:
    """``json.dumps(to_chrome_trace(source, metadata=metadata), allow_nan=False,
    separators=(",", ":"))``: the fast path when ``source`` is a ``trace_records()``
    producer with plain records, else the reference build with the vectorised
    overlap check. Raises what ``to_chrome_trace`` raises (ValueError naming the
    track when spans overlap, or the span whose time is not finite; TypeError for a
    span that is not a record). The garbage collector is paused meanwhile (module doc)."""
    with gc_paused():
        try:
            return _fast_text(source, metadata)
        except _Fallback:
            pass
        from traces.chrome_trace import OVERLAP_TOLERANCE_US, check_no_overlap, to_chrome_trace
        trace = to_chrome_trace(source, metadata=metadata, validate=False)
        if overlapping(trace["traceEvents"], OVERLAP_TOLERANCE_US):
            check_no_overlap(trace)   # raises with the reference message
        return _DUMPS(trace)


def write_trace_fast(source: Any, path, metadata: dict | None = None, gzip_out: bool | None = None) -> Path:
    """Write ``traces.chrome_trace.to_chrome_trace(source, metadata=metadata)`` to
    ``path`` (gzip when ``gzip_out``, or when None and ``path`` ends in ``.gz``),
    byte-identical to ``write_chrome_trace``. Raises ValueError naming the track when
    spans overlap (nothing is written then)."""
    text = chrome_trace_text(source, metadata)
    path = Path(path)
    if gzip_out is None:
        gzip_out = path.suffix == ".gz"
    opener = gzip.open if gzip_out else open
    with opener(path, "wt", encoding="utf-8") as f:
        f.write(text)
    return path
