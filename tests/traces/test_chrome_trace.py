"""The Chrome trace writer: layout, units, names, order, flows and the overlap check."""
from __future__ import annotations

import gzip
import json
from enum import Enum

import numpy as np
import pytest

from npu_sim import Pipe, TraceRecorder
from npu_sim.trace import Counter, Span
from traces import check_no_overlap, json_safe, to_chrome_trace, validate_trace, write_chrome_trace
from traces.tracks import PIPE_ORDER, parse_core_track, parse_stream


def _names(trace):
    procs, threads = {}, {}
    for ev in trace["traceEvents"]:
        if ev["ph"] == "M" and ev["name"] == "process_name":
            procs[ev["pid"]] = ev["args"]["name"]
        elif ev["ph"] == "M" and ev["name"] == "thread_name":
            threads[(ev["pid"], ev["tid"])] = ev["args"]["name"]
    return procs, threads


@pytest.mark.parametrize("run", ["acl_run", "device_run"])
def test_strict_json_and_top_level(run, request):
    """The dict is strict JSON (no NaN) with the documented top-level keys."""
    trace = request.getfixturevalue(run).trace
    text = json.dumps(trace, allow_nan=False)
    back = json.loads(text)
    assert back["displayTimeUnit"] == "ns"
    assert isinstance(back["traceEvents"], list) and back["traceEvents"]
    assert back["otherData"]["devices"]["device 0"]["aic_count"] == 2
    assert back["otherData"]["devices"]["device 0"]["aiv_count"] == 4
    assert validate_trace(back)["spans"] == len(request.getfixturevalue(run).rec.spans)


@pytest.mark.parametrize("run", ["acl_run", "device_run"])
def test_every_track_named_and_no_overlap(run, request):
    trace = request.getfixturevalue(run).trace
    procs, threads = _names(trace)
    for ev in trace["traceEvents"]:
        if ev["ph"] in ("X", "s", "f"):
            assert ev["pid"] in procs
            assert (ev["pid"], ev["tid"]) in threads
        if ev["ph"] == "C":
            assert ev["pid"] in procs
    tids = [tid for (_, tid) in threads]
    assert len(tids) == len(set(tids)), "tids are unique across the trace"
    check_no_overlap(trace)


def test_ts_and_dur_are_us_of_the_recorded_ns(acl_run):
    """Each X event is one recorded span, with ts = start_ns / 1000 and dur = dur_ns / 1000."""
    procs, threads = _names(acl_run.trace)
    got = sorted((procs[e["pid"]], threads[(e["pid"], e["tid"])], e["name"], e["ts"], e["dur"])
                 for e in acl_run.trace["traceEvents"] if e["ph"] == "X")
    want = sorted((s.track[0], s.track[1], s.name, s.start_ns / 1000, s.dur_ns / 1000) for s in acl_run.rec.spans)
    assert got == want


def test_process_and_thread_order(acl_run, device_run):
    """host first, then devices; host thread, streams, AIC cores, AIV cores, pipes in data-flow order."""
    for run in (acl_run, device_run):
        procs, threads = _names(run.trace)
        sort_idx = {(e["pid"], e["tid"]): e["args"]["sort_index"] for e in run.trace["traceEvents"]
                    if e["ph"] == "M" and e["name"] == "thread_sort_index"}
        dev_pid = next(p for p, n in procs.items() if n == "device 0")
        order = [threads[k] for k in sorted(sort_idx, key=sort_idx.get) if k[0] == dev_pid]
        kinds = [0 if parse_stream(t) is not None else (1 if t.startswith("AIC") else 2) for t in order]
        assert kinds == sorted(kinds)
        cores = [parse_core_track(t) for t in order if parse_core_track(t)]
        assert cores == sorted(cores, key=lambda c: (c.core_type, c.core_index, PIPE_ORDER.index(c.pipe)))
    procs, _ = _names(acl_run.trace)
    assert procs[min(procs)] == "host"


def test_flows_pair_host_launches_with_device_tasks(acl_run):
    evs = acl_run.trace["traceEvents"]
    procs, threads = _names(acl_run.trace)
    starts = {e["id"]: e for e in evs if e["ph"] == "s"}
    finishes = {e["id"]: e for e in evs if e["ph"] == "f"}
    assert starts and starts.keys() == finishes.keys()
    host_ids = {s.flow_id for s in acl_run.rec.spans if s.flow_out}
    dev_ids = {s.flow_id for s in acl_run.rec.spans if s.flow_id is not None and not s.flow_out}
    assert set(starts) == host_ids & dev_ids
    for fid, f in finishes.items():
        s = starts[fid]
        assert procs[s["pid"]] == "host" and procs[f["pid"]] == "device 0"
        assert f["bp"] == "e" and s["name"] == f["name"] and s["cat"] == f["cat"]
        assert parse_stream(threads[(f["pid"], f["tid"])]) is not None
        assert f["ts"] >= s["ts"]


def test_counters_become_c_events(acl_run):
    cs = [e for e in acl_run.trace["traceEvents"] if e["ph"] == "C"]
    assert len(cs) == len(acl_run.rec.counters)
    mem = [e for e in cs if e["name"] == "device memory"]
    mem_rec = [c for c in acl_run.rec.counters if c.track == "device memory"]
    assert mem and all(set(e["args"]) == {"in use (bytes)"} for e in mem)
    assert max(e["args"]["in use (bytes)"] for e in mem) == max(c.value for c in mem_rec)
    # beside it, the device's L2 hit rate: one sample per kernel, in the device's process
    l2 = [e for e in cs if e["name"] == "device 0"]
    assert len(l2) == len(cs) - len(mem) == len(acl_run.dev.kernel_records) > 0
    procs, _ = _names(acl_run.trace)
    assert all(set(e["args"]) == {"L2 hit rate (%)"} and 0 <= e["args"]["L2 hit rate (%)"] <= 100
               and procs[e["pid"]] == "device 0" for e in l2)


def test_args_are_json_safe(device_run):
    """numpy scalars/arrays/dtypes in KernelSpec.args come out as plain JSON values."""
    task = next(e for e in device_run.trace["traceEvents"] if e["ph"] == "X" and e["cat"] == "task")
    assert task["args"]["shape"] == [3, 4] and task["args"]["scale"] == 0.5
    assert task["args"]["dtype"] == "float16" and task["args"]["tiling_key"] == 3
    assert set(task["args"]["pipe_busy_ns"]) == {"MTE2", "MTE1", "CUBE", "FIXPIPE", "SCALAR"}


def test_json_safe_conversions():
    class Color(Enum):
        RED = 1
    got = json_safe({Pipe.MTE2: np.int64(3), "f": np.float32(1.5), "b": np.bool_(True), "e": Color.RED,
                     "t": (1, 2), "nan": float("nan"), "inf": -np.inf, "a": np.arange(3), "s": {2, 1}})
    assert got == {"MTE2": 3, "f": 1.5, "b": True, "e": 1, "t": [1, 2], "nan": "NaN", "inf": "-Infinity",
                   "a": [0, 1, 2], "s": [1, 2]}
    assert type(got["MTE2"]) is int and type(got["f"]) is float
    json.dumps(got, allow_nan=False)


def test_overlap_is_rejected_naming_the_track():
    rec = TraceRecorder()
    rec.span(("device 0", "AIC1 CUBE"), "A", 0.0, 100.0, "pipe")
    rec.span(("device 0", "AIC1 CUBE"), "B", 50.0, 100.0, "pipe")
    with pytest.raises(ValueError, match="device 0 / AIC1 CUBE"):
        to_chrome_trace(rec)
    trace = to_chrome_trace(rec, validate=False)
    with pytest.raises(ValueError, match="AIC1 CUBE"):
        check_no_overlap(trace)


def test_touching_and_instant_spans_are_not_overlaps():
    spans = [Span(("device 0", "stream 1"), "A", 0.0, 100.0, "task"),
             Span(("device 0", "stream 1"), "EVENT_RECORD", 100.0, 0.0, "task"),
             Span(("device 0", "stream 1"), "B", 100.0, 0.1 + 0.2, "task"),
             Span(("device 0", "stream 1"), "C", 100.0 + 0.1 + 0.2, 5.0, "task")]
    check_no_overlap(to_chrome_trace(spans))


def test_non_finite_time_is_an_error():
    with pytest.raises(ValueError, match="finite"):
        to_chrome_trace([Span(("host", "thread 0"), "x", float("nan"), 1.0, "host")])


def test_write_plain_and_gzip(tmp_path, device_run):
    p = write_chrome_trace(device_run.dev, tmp_path / "t.json", metadata={"model": "m.onnx", "n": np.int32(2)})
    loaded = json.loads(p.read_text())
    assert loaded["otherData"]["model"] == "m.onnx" and loaded["otherData"]["n"] == 2
    assert loaded["otherData"]["chip"] == "tiny"
    g = write_chrome_trace(device_run.rec, tmp_path / "t.json.gz", metadata={"chip": "tiny"})
    with gzip.open(g, "rt") as f:
        assert json.load(f)["traceEvents"] == json.loads(json.dumps(device_run.trace["traceEvents"]))


def test_counter_track_without_device_gets_own_process():
    rec = TraceRecorder()
    rec.span(("host", "thread 0"), "malloc", 0.0, 10.0, "host")
    rec.span(("device 0", "stream 1"), "K", 0.0, 10.0, "task")
    rec.span(("device 1", "stream 1"), "K", 0.0, 10.0, "task")
    rec.counters.append(Counter("device memory", "in use (bytes)", 5.0, 1.0))
    procs, _ = _names(to_chrome_trace(rec))
    assert sorted(procs.values()) == ["device 0", "device 1", "device memory", "host"]
    assert [procs[p] for p in sorted(procs)][:3] == ["host", "device 0", "device 1"]


def test_plain_records_and_simulator_records_give_the_same_trace():
    """traces takes plain data: its own records, the simulator's (same fields), or a
    trace_records() producer; anything else is a TypeError."""
    import traces

    sim = [Span(("host", "thread 0"), "launch", 0.0, 4.0, "host", {"k": 1}, 1, True),
           Span(("device 0", "stream 1"), "K", 4.0, 10.0, "task", None, 1)]
    plain = [traces.Span(s.track, s.name, s.start_ns, s.dur_ns, s.cat, s.args, s.flow_id, s.flow_out) for s in sim]
    counters = [traces.Counter("device memory", "in use (bytes)", 0.0, 64.0)]

    class Producer:
        def trace_records(self):
            return plain, counters, {"chip": "tiny"}

    a = to_chrome_trace(sim, counters, {"chip": "tiny"})
    assert to_chrome_trace(plain, counters, {"chip": "tiny"}) == a == to_chrome_trace(Producer())
    with pytest.raises(TypeError, match="span 1"):
        to_chrome_trace([plain[0], ("not", "a", "span")])
