"""``npu-trace``: output and exit codes for good, invalid and unreadable files."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from traces import to_chrome_trace
from traces.cli import main
from npu_sim import TraceRecorder

HAS_MPL = importlib.util.find_spec("matplotlib") is not None


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def _write(tmp_path, name, obj):
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj))
    return p


def test_help(capsys):
    code, out, _ = run(capsys, "--help")
    assert code == 0 and all(w in out for w in ("summary", "validate", "timeline", "Exit codes"))
    code, out, _ = run(capsys, "summary", "--help")
    assert code == 0 and "--top" in out and "--json" in out
    code, out, _ = run(capsys, "timeline", "--help")
    assert code == 0 and "matplotlib" in out


def test_usage_errors_exit_2(capsys, acl_run):
    assert run(capsys, "frobnicate", acl_run.path)[0] == 2
    assert run(capsys)[0] == 2
    code, _, err = run(capsys, "summary", acl_run.path, "--top", "0")
    assert code == 2 and "--top" in err


def test_summary_tables(capsys, acl_run):
    code, out, err = run(capsys, "summary", acl_run.path, "--top", "3")
    assert code == 0, err
    for text in ("tiny", "Top 3 ops by device time", "Matmul", "AI_CORE", "MEMCPY H2D", "Engine utilisation",
                 "CUBE", "VECTOR", "Copy / compute overlap", "Streams", "stream 1", "Critical path",
                 "Idle gaps", "host launch", "device memory", "in use (bytes)"):
        assert text in out, text
    assert "Traceback" not in out + err


def test_summary_json(capsys, acl_run):
    code, out, _ = run(capsys, "summary", acl_run.path, "--json", "--top", "2")
    assert code == 0
    rep = json.loads(out)
    assert len(rep["ops"]) == 2 and rep["ops"][0]["total_ns"] >= rep["ops"][1]["total_ns"]
    assert {"engines", "overlap", "streams", "critical_path", "idle_gaps", "counters"} <= rep.keys()


def test_summary_device_filter(capsys, acl_run):
    assert run(capsys, "summary", acl_run.path, "--device", "device 0")[0] == 0
    code, _, err = run(capsys, "summary", acl_run.path, "--device", "device 9")
    assert code == 2 and "device 9" in err


def test_validate_ok(capsys, acl_run):
    code, out, _ = run(capsys, "validate", acl_run.path)
    assert code == 0 and out.startswith("OK") and "no overlapping spans" in out


def _broken(trace, what):
    evs = trace["traceEvents"]
    if what == "overlap":
        x = next(e for e in evs if e["ph"] == "X" and e["cat"] == "pipe")
        evs.append(dict(x, ts=x["ts"] + x["dur"] / 2))
    elif what == "unpaired flow":
        evs.remove(next(e for e in evs if e["ph"] == "f"))
    elif what == "unnamed track":
        evs.remove(next(e for e in evs if e["ph"] == "M" and e["name"] == "thread_name"))
    elif what == "negative dur":
        next(e for e in evs if e["ph"] == "X")["dur"] = -1
    elif what == "flow outside spans":
        next(e for e in evs if e["ph"] == "f")["ts"] = -5.0
    return trace


@pytest.mark.parametrize("what,message", [("overlap", "spans overlap on track 'device 0 / AIC"),
                                          ("unpaired flow", "flow id"), ("unnamed track", "thread_name"),
                                          ("negative dur", "'dur'"), ("flow outside spans", "not inside any span")])
def test_validate_rejects_invalid_traces_with_exit_1(capsys, tmp_path, acl_run, what, message):
    p = _write(tmp_path, "bad.json", _broken(json.loads(json.dumps(acl_run.loaded)), what))
    code, out, err = run(capsys, "validate", p)
    assert code == 1 and message in err
    assert err.count("\n") == 1 and err.startswith("npu-trace: error: invalid trace")


BAD_FILES = {
    "missing": None,
    "not JSON": "this is { not json",
    "binary": b"\x89PNG\r\n\x1a\n\x00\x00",
    "object without traceEvents": {"hello": 1},
    "array of numbers": [1, 2, 3],
    "string": "\"just a string\"",
}


@pytest.mark.parametrize("command", ["summary", "validate", "timeline"])
@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_unreadable_files_exit_2_with_one_line(capsys, tmp_path, command, kind):
    p = tmp_path / "trace.json"
    content = BAD_FILES[kind]
    if isinstance(content, bytes):
        p.write_bytes(content)
    elif content is not None:
        _write(tmp_path, "trace.json", content)
    code, out, err = run(capsys, command, p)
    assert code == 2
    assert err.startswith("npu-trace: error:") and err.count("\n") == 1 and str(p) in err
    assert "Traceback" not in out + err


def test_malformed_events_exit_2_for_analysis(capsys, tmp_path, acl_run):
    trace = json.loads(json.dumps(acl_run.loaded))
    next(e for e in trace["traceEvents"] if e["ph"] == "X")["ts"] = "soon"
    p = _write(tmp_path, "t.json", trace)
    for command in ("summary", "timeline"):
        code, _, err = run(capsys, command, p)
        assert code == 2 and "'ts'" in err and err.count("\n") == 1
    assert run(capsys, "validate", p)[0] == 1


def test_directory_is_unreadable(capsys, tmp_path):
    code, _, err = run(capsys, "summary", tmp_path)
    assert code == 2 and "directory" in err


def test_host_only_and_empty_traces(capsys, tmp_path):
    rec = TraceRecorder()
    rec.span(("host", "thread 0"), "malloc", 0.0, 1000.0, "host")
    p = _write(tmp_path, "host.json", to_chrome_trace(rec))
    code, out, _ = run(capsys, "summary", p)
    assert code == 0 and "no device spans" in out
    # issue 14: a trace with no spans is bad input for every command: one line, non-zero exit
    p = _write(tmp_path, "empty.json", {"traceEvents": []})
    for command, want in (("summary", 2), ("validate", 1), ("timeline", 2), ("view", 2), ("export", 2)):
        extra = ["--csv", str(tmp_path / "o.csv")] if command == "export" else []
        code, out, err = run(capsys, command, p, *extra)
        assert code == want and "no spans" in err and err.count("\n") == 1, command


def test_text_timeline(capsys, acl_run):
    code, out, _ = run(capsys, "timeline", acl_run.path, "--width", "100")
    assert code == 0
    lines = out.splitlines()
    rows = [line for line in lines if "│" in line]
    assert any(line.startswith("host / thread 0") for line in rows)
    assert any("device 0 / AIC0 CUBE" in line for line in rows)
    assert all(len(line) <= 100 for line in lines if "│" in line or "┌" in line)
    assert any(ch in out for ch in "░▒▓█")
    code, out, _ = run(capsys, "timeline", acl_run.path, "--no-pipes", "--track", "stream")
    assert code == 0 and "stream 1" in out and "AIC0" not in out and "host / thread 0" not in out


@pytest.mark.skipif(HAS_MPL, reason="matplotlib is installed")
def test_png_without_matplotlib_says_so(capsys, tmp_path, acl_run):
    code, out, err = run(capsys, "timeline", acl_run.path, "--out", tmp_path / "t.png")
    assert code == 1 and "matplotlib is not installed" in err and "stream 1" in out
    assert not (tmp_path / "t.png").exists()


@pytest.mark.skipif(not HAS_MPL, reason="matplotlib is not installed")
def test_png_with_matplotlib(capsys, tmp_path, acl_run):
    code, out, _ = run(capsys, "timeline", acl_run.path, "--out", tmp_path / "t.png")
    assert code == 0 and (tmp_path / "t.png").read_bytes()[:4] == b"\x89PNG"


def test_module_entry_point(tmp_path, acl_run):
    """``python -m traces.cli`` runs main and exits with its code."""
    ok = subprocess.run([sys.executable, "-m", "traces.cli", "validate", str(acl_run.path)],
                        capture_output=True, text=True)
    assert ok.returncode == 0 and "OK" in ok.stdout
    bad = subprocess.run([sys.executable, "-m", "traces.cli", "summary", str(tmp_path / "nope.json")],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.strip().endswith("no such file") and "Traceback" not in bad.stderr
