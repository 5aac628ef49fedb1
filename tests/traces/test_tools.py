"""``npu-trace summary | view | diff | export`` (issue 14) on traces from ``npu-sim run``
(tiny and default chips), a two-stream ACL run, a timing-only run, and hand-written
Chrome traces. Per-op totals are checked against sums computed here, straight
from the raw events.

(Over 300 lines on purpose: the four commands share the traces and the raw-event
sums these tests compare against.)"""
from __future__ import annotations

import csv
import gzip
import json
import math

import pytest

from tests.traces.test_cli import run, wide  # noqa: F401  (wide: autouse COLUMNS=200)
from traces.cli import main
from traces.critical import critical_path
from traces.load import from_chrome_trace, read_trace_file

SYNC = {"EVENT_RECORD", "STREAM_WAIT_EVENT"}


@pytest.fixture(params=["tiny", "other", "graph", "acl_run", "timing_only"])
def trace_path(request, sim_runs, acl_run, timing_only_trace):
    """npu-sim run --mode eager (tiny, other), --mode graph, two-stream ACL, timing-only."""
    return {"tiny": sim_runs.tiny, "other": sim_runs.other, "graph": sim_runs.graph, "acl_run": acl_run.path,
            "timing_only": timing_only_trace}[request.param]


def raw_op_totals(path, lo=-math.inf):
    """{op name: (calls, summed ns)} of stream tasks on devices, from the raw JSON,
    sync tasks left out, each cut to start at ``lo`` (ns) as --phase/--window do."""
    ev = json.loads(open(path).read())["traceEvents"]
    procs = {e["pid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "process_name"}
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    out = {}
    for e in ev:
        if e["ph"] != "X" or e.get("cat") not in ("task", "memcpy"):
            continue
        if not procs[e["pid"]].startswith("device") or not threads[(e["pid"], e["tid"])].startswith("stream "):
            continue
        if (e.get("args") or {}).get("task_type") in SYNC:
            continue
        a, b = max(e["ts"] * 1000, lo), (e["ts"] + e["dur"]) * 1000
        if b < lo or (b <= lo and e["dur"] > 0):
            continue
        n, t = out.get(e["name"], (0, 0.0))
        out[e["name"]] = (n + 1, t + (b - a))
    return out


def test_summary_op_totals_equal_raw_sums(capsys, trace_path):
    code, out, err = run(capsys, "summary", trace_path, "--json", "--top", "1000")
    assert code == 0, err
    got = {r["name"]: (r["count"], r["total_ns"]) for r in json.loads(out)["ops"]}
    want = raw_op_totals(trace_path)
    assert got.keys() == want.keys()
    for k, (n, t) in want.items():
        assert got[k][0] == n and got[k][1] == pytest.approx(t, rel=1e-9, abs=1e-6), k


def test_phase_compute_skips_the_upload(capsys, sim_runs):
    ev = json.loads(sim_runs.tiny.read_text())["traceEvents"]
    first_kernel = min(e["ts"] * 1000 for e in ev if e["ph"] == "X" and
                       (e.get("args") or {}).get("task_type") in ("AI_CORE", "AI_VECTOR_CORE", "MIX_AIC"))
    code, out, err = run(capsys, "summary", sim_runs.tiny, "--json", "--top", "1000", "--phase", "compute")
    assert code == 0, err
    got = {r["name"]: (r["count"], r["total_ns"]) for r in json.loads(out)["ops"]}
    want = raw_op_totals(sim_runs.tiny, lo=first_kernel)
    assert got.keys() == want.keys()
    assert all(got[k][1] == pytest.approx(want[k][1]) for k in want)
    full = raw_op_totals(sim_runs.tiny)
    assert "MEMCPY H2D" in full and "MEMCPY H2D" not in want      # the upload dropped out


def test_window_limits_every_table(capsys, sim_runs):
    code, out, _ = run(capsys, "summary", sim_runs.tiny, "--json", "--window", "60us:70us")
    assert code == 0
    rep = json.loads(out)
    assert all(60_000 - 1e-6 <= s["start_ns"] and s["end_ns"] <= 70_000 + 1e-6 for s in rep["path"]["segments"])
    assert sum(r["total_ns"] for r in rep["ops"]) <= 2 * 10_000   # two streams at most, 10 us each
    for bad in ("5", "9:3", "a:b"):
        code, _, err = run(capsys, "summary", sim_runs.tiny, "--window", bad)
        assert code == 2 and "--window" in err and err.count("\n") == 1


def test_critical_path_ends_at_the_last_span_and_tiles_the_run(trace_path):
    data = from_chrome_trace(read_trace_file(trace_path))
    cp = critical_path(data)
    last_end = max(s.start_ns + s.dur_ns for s in data.spans)
    first = min(s.start_ns for s in data.spans)
    assert cp["end_ns"] == pytest.approx(last_end)
    assert first == 0.0 and cp["length_ns"] == pytest.approx(last_end)    # the run starts at 0
    segs = cp["segments"]
    assert segs[-1]["end_ns"] == pytest.approx(last_end) and segs[0]["start_ns"] == pytest.approx(first)
    for a, b in zip(segs, segs[1:]):
        assert b["start_ns"] == pytest.approx(a["end_ns"], abs=1e-6)
    assert sum(g["dur_ns"] for g in segs) == pytest.approx(cp["length_ns"])
    assert sum(r["share"] for r in cp["by_name"]) == pytest.approx(1.0)


def _hand_trace():
    """Host launches K1 on stream 1 and K2 on stream 2; stream 2 waits for an event
    recorded after K1, then runs K2, which ends last. Times in us."""
    M = [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "host"}},
         {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "device 0"}},
         {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "thread 0"}},
         {"ph": "M", "name": "thread_name", "pid": 2, "tid": 2, "args": {"name": "stream 1"}},
         {"ph": "M", "name": "thread_name", "pid": 2, "tid": 3, "args": {"name": "stream 2"}}]
    X = [("launch K1", 1, 1, 0, 1, "host"), ("K1", 2, 2, 1, 10, "task"), ("EVENT_RECORD", 2, 2, 11, 0, "task"),
         ("STREAM_WAIT_EVENT", 2, 3, 2, 9, "task"), ("K2", 2, 3, 11, 5, "task"), ("launch K2", 1, 1, 1, 1, "host")]
    ev = M + [{"ph": "X", "name": n, "pid": p, "tid": t, "ts": ts, "dur": d, "cat": c,
               "args": {"task_type": n if n in SYNC else "AI_CORE"} if c == "task" else {}}
              for n, p, t, ts, d, c in X]
    ev += [{"ph": "s", "id": 1, "pid": 1, "tid": 1, "ts": 0, "name": "launch"},
           {"ph": "f", "id": 1, "pid": 2, "tid": 2, "ts": 1, "bp": "e", "name": "launch"}]
    return {"traceEvents": ev}


def test_critical_path_of_a_hand_written_trace():
    cp = critical_path(_hand_trace())
    assert cp["length_ns"] == pytest.approx(16_000)
    names = [(g["kind"], g["name"]) for g in cp["segments"]]
    assert names == [("op", "launch K1"), ("op", "K1"), ("op", "K2")]
    assert [g["dur_ns"] for g in cp["segments"]] == pytest.approx([1000, 10_000, 5000])


@pytest.mark.parametrize("by", ["kernel", "stream", "core"])
def test_summary_by(capsys, acl_run, by):
    code, out, err = run(capsys, "summary", acl_run.path, "--by", by)
    assert code == 0, err
    assert f"by {by}" in out
    want = {"kernel": "tiling_key", "stream": "device 0 / stream 1", "core": "device 0 / AIC0"}[by]
    assert want in out


def test_summary_tables_issue_14(capsys, sim_runs):
    code, out, _ = run(capsys, "summary", sim_runs.tiny)
    assert code == 0
    for text in ("Min (ns)", "Max (ns)", "Bound", "Host time against device time", "Critical path:",
                 "Least busy", "Most busy", "Longest stream chain"):
        assert text in out, text


def test_view(capsys, tmp_path, acl_run):
    code, out, err = run(capsys, "view", acl_run.path, "--width", "120", "--svg", tmp_path / "v.svg")
    assert code == 0, err
    rows = [line for line in out.splitlines() if "│" in line]
    assert all(len(line) <= 120 for line in rows)
    assert sum(line.startswith("device 0 / stream ") for line in rows) == 2
    assert any(line.startswith("device 0 / AIC0 ") for line in rows)
    assert any(ch in out for ch in "▏▎▍▌▋▊▉")          # sub-cell resolution at span edges
    assert "cube kernel" in out and "memcpy" in out and "┬" in out   # legend and axis
    assert (tmp_path / "v.svg").read_text().lstrip().startswith("<svg")
    code, out, _ = run(capsys, "view", acl_run.path, "--collapse", "--tracks", "cores")
    assert code == 0 and "AIC (all)" in out and "stream" not in out
    code, out, _ = run(capsys, "view", acl_run.path, "--tracks", "pipes", "--filter", "matmul")
    assert code == 0 and "AIC0 CUBE" in out and "AIV0" not in out
    code, _, err = run(capsys, "view", acl_run.path, "--tracks", "nope")
    assert code == 2 and "--tracks" in err


def test_diff(capsys, sim_runs):
    code, out, err = run(capsys, "diff", sim_runs.tiny, sim_runs.other, "--json")
    assert code == 0, err
    rep = json.loads(out)
    deltas = [abs(r["delta_ns"]) for r in rep["ops"]]
    assert deltas == sorted(deltas, reverse=True)
    a, b = raw_op_totals(sim_runs.tiny), raw_op_totals(sim_runs.other)
    for r in rep["ops"]:
        assert r["total_a_ns"] == pytest.approx(a[r["name"]][1]) and r["total_b_ns"] == pytest.approx(b[r["name"]][1])
        assert r["ratio"] == pytest.approx(r["total_b_ns"] / r["total_a_ns"])
    assert rep["total"]["delta_ns"] == pytest.approx(sum(r["delta_ns"] for r in rep["ops"]))
    code, out, _ = run(capsys, "diff", sim_runs.tiny, sim_runs.other)
    assert code == 0 and "B / A" in out and "Matmul" in out


def test_export_csv_and_msprof(capsys, tmp_path, acl_run):
    code, _, err = run(capsys, "export", acl_run.path, "--csv", tmp_path / "ops.csv",
                       "--msprof-csv", tmp_path / "ms.csv")
    assert code == 0, err
    ops = list(csv.DictReader(open(tmp_path / "ops.csv")))
    assert {r["name"] for r in ops} >= {"Matmul", "Add", "MEMCPY H2D"}
    ms = list(csv.DictReader(open(tmp_path / "ms.csv")))
    for col in ("Op Name", "OP Type", "Task Type", "Task Duration(us)", "Block Dim", "Input Shapes",
                "Input Data Types", "Input Formats", "Output Shapes"):
        assert col in ms[0], col
    mm = next(r for r in ms if r["Op Name"] == "Matmul")
    assert mm["Task Type"] == "AI_CORE" and mm["Input Shapes"] == "64,48;48,80"
    raw = [e for e in acl_run.loaded["traceEvents"] if e["ph"] == "X" and e.get("cat") in ("task", "memcpy")]
    assert len(ms) == len(raw)
    assert sum(float(r["Task Duration(us)"]) for r in ms) == pytest.approx(sum(e["dur"] for e in raw), abs=1e-2)
    code, _, err = run(capsys, "export", acl_run.path)
    assert code == 2 and "--csv" in err


@pytest.mark.skipif(__import__("importlib").util.find_spec("matplotlib") is None, reason="no matplotlib")
def test_export_png(capsys, tmp_path, acl_run):
    code, _, _ = run(capsys, "export", acl_run.path, "--png", tmp_path / "g.png", "--collapse")
    assert code == 0 and (tmp_path / "g.png").read_bytes()[:4] == b"\x89PNG"


def test_export_html_is_self_contained(capsys, tmp_path, acl_run):
    code, _, _ = run(capsys, "export", acl_run.path, "--html", tmp_path / "t.html")
    text = (tmp_path / "t.html").read_text()
    assert code == 0 and "<canvas" in text and "Top ops by device time" in text
    assert "http://" not in text and "https://" not in text and " src=" not in text


# --- any Chrome trace in -------------------------------------------------------------

def _names(extra=()):
    return [{"ph": "M", "name": "process_name", "pid": 7, "args": {"name": "python"}},
            {"ph": "M", "name": "thread_name", "pid": 7, "tid": 1, "args": {"name": "main"}}, *extra]


TORCH_LIKE = {"traceEvents": _names([
    {"ph": "X", "name": "forward", "pid": 7, "tid": 1, "ts": 0, "dur": 100, "cat": "python_function"},
    {"ph": "X", "name": "aten::linear", "pid": 7, "tid": 1, "ts": 10, "dur": 40, "cat": "cpu_op"},
    {"ph": "X", "name": "aten::addmm", "pid": 7, "tid": 1, "ts": 12, "dur": 30, "cat": "cpu_op"},
    {"ph": "B", "name": "step", "pid": 7, "tid": 1, "ts": 60},
    {"ph": "E", "pid": 7, "tid": 1, "ts": 90},
    {"ph": "i", "name": "mark", "pid": 7, "tid": 1, "ts": 95, "s": "t"},
    {"ph": "C", "name": "mem", "pid": 7, "ts": 5, "args": {"bytes": 10}},
    {"ph": "s", "id": 3, "pid": 7, "tid": 1, "ts": 12, "name": "f"},
    {"ph": "t", "id": 3, "pid": 7, "tid": 1, "ts": 20, "name": "f"},
    {"ph": "f", "id": 3, "pid": 7, "tid": 1, "ts": 61, "bp": "e", "name": "f"}])}


@pytest.mark.parametrize("gz", [False, True])
def test_any_chrome_trace_loads(capsys, tmp_path, gz):
    p = tmp_path / ("t.json.gz" if gz else "t.json")
    if gz:
        with gzip.open(p, "wt") as f:
            json.dump(TORCH_LIKE, f)
    else:
        p.write_text(json.dumps(TORCH_LIKE))
    data = from_chrome_trace(read_trace_file(p))
    step = next(s for s in data.spans if s.name == "step")
    assert step.dur_ns == 30_000 and any(s.name == "mark" and s.dur_ns == 0 for s in data.spans)
    code, out, err = run(capsys, "validate", p)
    assert code == 0 and "4 spans" in out, err      # nested slices are legal (3 X + 1 B/E)
    for cmd in (["summary"], ["view", "--width", "80"], ["export", "--html", tmp_path / "t.html"]):
        code, out, err = run(capsys, cmd[0], p, *cmd[1:])
        assert code == 0, (cmd, err)
    assert critical_path(data)["length_ns"] == pytest.approx(100_000)


@pytest.mark.parametrize("events,message", [
    ([{"ph": "X", "name": "a", "pid": 7, "tid": 1, "ts": 0, "dur": 10},
      {"ph": "X", "name": "b", "pid": 7, "tid": 1, "ts": 5, "dur": 10}], "overlap partly"),
    ([{"ph": "B", "name": "a", "pid": 7, "tid": 1, "ts": 0}, {"ph": "X", "name": "b", "pid": 7, "tid": 1, "ts": 5,
      "dur": 10}, {"ph": "E", "pid": 7, "tid": 1, "ts": 10}], "overlap partly"),
    ([{"ph": "X", "name": "a", "pid": 7, "tid": 2, "ts": 0, "dur": 10}], "thread_name"),
    ([{"ph": "E", "pid": 7, "tid": 1, "ts": 10}], "no open 'B'"),
    ([{"ph": "B", "name": "a", "pid": 7, "tid": 1, "ts": 0}], "no matching 'E'"),
    ([{"ph": "X", "name": "a", "pid": 7, "tid": 1, "ts": "0", "dur": 10}], "'ts'"),
    ([{"ph": "B", "pid": 7, "tid": 1, "ts": 0}], "'name'"),
])
def test_validate_rejects_only_real_problems(capsys, tmp_path, events, message):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps({"traceEvents": _names(events)}))
    code, _, err = run(capsys, "validate", p)
    assert code == 1 and message in err and err.count("\n") == 1


# --- bad input: one line, non-zero exit, for every command --------------------------

BAD = {"missing": None, "truncated": '{"traceEvents": [{"ph": "X", "na', "not JSON": "hello",
       "not a trace": json.dumps({"rows": [1, 2]}), "no spans": json.dumps({"traceEvents": _names()})}


@pytest.mark.parametrize("command", ["summary", "view", "diff", "export", "validate", "timeline"])
@pytest.mark.parametrize("kind", list(BAD))
def test_bad_input_every_command(capsys, tmp_path, command, kind):
    p = tmp_path / "t.json"
    if BAD[kind] is not None:
        p.write_text(BAD[kind])
    extra = {"diff": [p], "export": ["--csv", tmp_path / "o.csv"]}.get(command, [])
    code, out, err = run(capsys, command, p, *extra)
    assert code != 0 and err.startswith("npu-trace: error:") and err.count("\n") == 1, (code, err)
    assert "Traceback" not in out + err


# --- streaming loader ----------------------------------------------------------------

ijson = pytest.importorskip("ijson")


@pytest.mark.parametrize("gz", [False, True])
def test_streaming_load_equals_whole_file_load(tmp_path, acl_run, gz):
    from traces.stream_load import load_trace
    p = acl_run.path
    if gz:
        p = tmp_path / "t.json.gz"
        with gzip.open(p, "wt") as f:
            f.write(acl_run.path.read_text())
    a, b = load_trace(p, stream=False), load_trace(p, stream=True)
    key = lambda s: (s.track, s.name, s.start_ns, s.dur_ns, s.cat, s.flow_id, s.flow_out)  # noqa: E731
    assert [key(s) for s in a.spans] == [key(s) for s in b.spans]
    assert a.counters == b.counters and a.metadata == b.metadata
    assert [s.args for s in a.spans] == [s.args for s in b.spans]


@pytest.mark.parametrize("kind", ["truncated", "not JSON", "not a trace", "no spans"])
def test_streaming_bad_input_is_one_line(tmp_path, kind):
    from traces.load import TraceLoadError
    from traces.stream_load import load_trace
    p = tmp_path / "t.json"
    p.write_text(BAD[kind])
    try:
        data = load_trace(p, stream=True)
    except TraceLoadError as e:
        assert "\n" not in str(e) and str(p) in str(e)
    else:
        assert kind == "no spans" and not data.spans


def test_every_command_on_every_run(capsys, tmp_path, trace_path):
    """npu-sim run (tiny and default chips), the two-stream ACL run and the timing-only
    run: every command succeeds."""
    for argv in (["summary", trace_path, "--phase", "compute"], ["summary", trace_path, "--phase", "steady"],
                 ["view", trace_path, "--width", "100", "--collapse"], ["view", trace_path, "--tracks", "pipes"],
                 ["diff", trace_path, trace_path, "--json"], ["validate", trace_path],
                 ["export", trace_path, "--csv", tmp_path / "a.csv", "--msprof-csv", tmp_path / "m.csv",
                  "--html", tmp_path / "a.html"]):
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, err)
    rep = json.loads(main(["diff", str(trace_path), str(trace_path), "--json"]) == 0 and capsys.readouterr().out)
    assert rep["total"]["delta_ns"] == 0 and all(r["ratio"] in (1.0, None) for r in rep["ops"])


MSPROF_LIKE = {"traceEvents": [
    {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Ascend Hardware"}},
    {"ph": "M", "name": "thread_name", "pid": 100, "tid": 12, "args": {"name": "Stream 12"}},
    {"ph": "M", "name": "process_name", "pid": 200, "tid": 0, "args": {"name": "CANN"}},
    {"ph": "M", "name": "thread_name", "pid": 200, "tid": 1, "args": {"name": "Thread 1"}},
    {"ph": "X", "name": "aclnnMatmul", "pid": 200, "tid": 1, "ts": "0", "dur": 5.0},
    {"ph": "X", "name": "MatMul_1", "pid": 100, "tid": 12, "ts": 6.5, "dur": 12.25,
     "args": {"Task Type": "AI_CORE", "Stream Id": 12}},
    {"ph": "X", "name": "Add_2", "pid": 100, "tid": 12, "ts": 19.0, "dur": 3.0, "args": {"Task Type": "AI_VECTOR_CORE"}},
]}


def test_msprof_like_trace_view_loads(capsys, tmp_path):
    """msprof's trace_view.json names its processes itself ("Ascend Hardware"): it
    validates and summarises as far as its content allows (no npu-sim device)."""
    ev = json.loads(json.dumps(MSPROF_LIKE))
    ev["traceEvents"][4]["ts"] = 0.0
    p = tmp_path / "trace_view.json"
    p.write_text(json.dumps(ev))
    for argv in (["validate"], ["summary"], ["view", "--width", "90"], ["export", "--csv", tmp_path / "o.csv"]):
        code, out, err = run(capsys, argv[0], p, *argv[1:])
        assert code == 0, (argv, err)
    code, out, _ = run(capsys, "view", p, "--width", "90")
    assert "Ascend Hardware / Stream 12" in out and "CANN / Thread 1" in out
    assert critical_path(from_chrome_trace(read_trace_file(p)))["length_ns"] == pytest.approx(22_000)
