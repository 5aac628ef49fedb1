"""The fast path of the Chrome/Perfetto trace writer: the bytes
``traces.chrome_trace.write_chrome_trace`` writes, several times faster.

The reference writer builds one dict per event (its args passed through
``json_safe``), checks that no two spans of one track overlap (a Python loop over
every event) and writes with ``json.dump(obj, f)``, which always takes the
pure-Python encoder (1.6 M small writes for light ResNet-50). This module:

* builds each "X" event's JSON text directly: the head (name, cat, pid, tid) once
  per distinct (name, cat, track), the times as ``repr`` of the same floats
  (``start_ns / 1000.0``, computed vectorised; ``json`` writes floats with
  ``float.__repr__``), a pipe span's ``{"tile", "bytes"}`` args formatted from its
  ints and any other args dict encoded once per distinct dict object;
* orders spans with a stable numpy argsort on the same keys (``sorted`` is stable);
* runs the overlap check once, vectorised per track (:func:`overlapping`); when it
  finds an overlap, or a time is not finite, or a span is not a plain record, it
  defers to ``traces.chrome_trace`` so the error is the reference one;
* joins the event texts and writes them with one ``f.write``.

``tests/perf/test_trace_fast_paths.py`` compares the bytes with the reference writer.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np

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
        from traces.chrome_trace import json_safe
        txt = cache[id(a)] = _DUMPS(json_safe(a))
    return txt


def _x_events(ents, order, ts_us, dur_us, pids, tids, parts: list, track_of, flow_out: dict, flow_in: dict) -> None:
    """Append the "X" event text of each entry (a pipe 6-tuple or a span 8-tuple, see
    ``npu_sim.trace.TraceRecorder.entries``) in start order (``order``) to ``parts``;
    note each span's tid in ``track_of`` and each flow end's (pid, tid, ts) in
    ``flow_out`` / ``flow_in`` (the first span of a flow id on each side, as the
    reference writer keeps)."""
    heads: dict[tuple, tuple[str, int, int]] = {}
    args_cache: dict[int, str] = {}
    add = parts.append
    for i, ts, du in zip(order.tolist(), ts_us[order].tolist(), dur_us[order].tolist()):
        e = ents[i]
        track = e[0]
        pipe = len(e) == 6
        key = (e[1], "pipe", track) if pipe else (e[1], e[4], track)
        h = heads.get(key)
        if h is None:
            pid, tid = pids[track[0]], tids[track]
            h = heads[key] = (f'{{"ph":"X","name":{_DUMPS(str(key[0]))},"cat":{_DUMPS(str(key[1]))},'
                              f'"pid":{pid},"tid":{tid},"ts":', pid, tid)
        track_of[i] = h[2]
        if pipe:
            t, b = e[4], e[5]
            if type(t) is int and type(b) is int:
                a = '{"tile":%d,"bytes":%d}' % (t, b) if b else '{"tile":%d}' % t
            else:
                a = _args_text({"tile": t, "bytes": b} if b else {"tile": t}, args_cache)
            add(f'{h[0]}{ts!r},"dur":{du!r},"args":{a}}}')
            continue
        a = e[5]
        if a:
            add(f'{h[0]}{ts!r},"dur":{du!r},"args":{_args_text(a, args_cache)}}}')
        else:
            add(f'{h[0]}{ts!r},"dur":{du!r}}}')
        fid = e[6]
        if fid is not None:
            side = flow_out if e[7] else flow_in
            fid = fid if isinstance(fid, (int, str)) else int(fid)
            side.setdefault(fid, (h[1], h[2], ts))


def _source_entries(source: Any) -> tuple[list, list, dict]:
    """``(entries, counters, metadata)`` of a trace source: its ``trace_entries()``
    when it has one (``acl_runtime.profiler.Profiler``: no ``Span`` objects built),
    else its ``trace_records()`` spans as 8-tuples. Raises _Fallback for a source of
    neither kind, an entry that is not a 6- or 8-tuple, or a span that is not a
    plain record."""
    from traces.records import is_span_record
    if hasattr(source, "trace_entries"):
        ents, counters, meta = source.trace_entries()
        if not all(type(e) is tuple and len(e) in (6, 8) for e in ents):
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
        start = np.fromiter((s[2] for s in spans), np.float64, n)
        dur = np.fromiter((s[3] for s in spans), np.float64, n)
    except (TypeError, ValueError):
        raise _Fallback from None
    ts_us, dur_us = start / 1000.0, dur / 1000.0
    if not (np.isfinite(ts_us).all() and np.isfinite(dur_us).all() and (dur_us >= 0).all()):
        raise _Fallback
    ids = assign_ids((s[0] for s in spans))
    counter_home = {t: _counter_pid(t, ids.pids) for t in {c.track for c in counters}}
    if set(counter_home.values()) - set(ids.pids):
        ids = assign_ids((s[0] for s in spans), extra_processes=counter_home.values())
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
    track_of = np.empty(n, np.int64)
    flow_out: dict = {}
    flow_in: dict = {}
    try:
        _x_events(spans, order, ts_us, dur_us, pids, tids, parts, track_of, flow_out, flow_in)
    except TypeError:       # e.g. an unhashable name: the reference build decides
        raise _Fallback from None
    if _overlap_arrays(track_of, ts_us, dur_us, OVERLAP_TOLERANCE_US):
        raise _Fallback
    for c in sorted(counters, key=lambda c: float(c.ts_ns)):
        v = float(c.ts_ns)
        if not np.isfinite(v):
            raise _Fallback
        parts.append(_DUMPS({"ph": "C", "name": str(c.track), "pid": pids[counter_home[c.track]], "ts": v / 1000.0,
                             "args": {str(c.name): json_safe(c.value)}}))
    for fid in sorted(flow_out.keys() & flow_in.keys(), key=lambda f: (isinstance(f, str), f)):
        (sp, st, sts), (dp, dt, dts) = flow_out[fid], flow_in[fid]
        parts.append(_DUMPS({"ph": "s", "id": fid, "name": "launch", "cat": "flow", "pid": sp, "tid": st, "ts": sts}))
        parts.append(_DUMPS({"ph": "f", "bp": "e", "id": fid, "name": "launch", "cat": "flow", "pid": dp, "tid": dt,
                             "ts": dts}))
    other = {"generator": GENERATOR}
    other.update(json_safe(meta))
    return f'{{"traceEvents":[{",".join(parts)}],"displayTimeUnit":"ns","otherData":{_DUMPS(other)}}}'


def chrome_trace_text(source: Any, metadata: dict | None = None) -> str:
    """``json.dumps(to_chrome_trace(source, metadata=metadata), allow_nan=False,
    separators=(",", ":"))``: the fast path when ``source`` is a ``trace_records()``
    producer with plain records, else the reference build with the vectorised
    overlap check. Raises what ``to_chrome_trace`` raises (ValueError naming the
    track when spans overlap, or the span whose time is not finite; TypeError for a
    span that is not a record)."""
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
