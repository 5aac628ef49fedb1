"""Big traces (issue 14): the streamed, compact load (:mod:`traces.scan`,
:mod:`traces.columns`) gives every command the same answer as the whole-file load,
on traces from ``npu-sim run`` (graph and eager mode), the two-stream ACL run and
the timing-only run, plain and gzip."""
from __future__ import annotations

import gzip
import json
import math

import pytest

import traces.stream_load as stream_load
from tests.traces.test_cli import run, wide  # noqa: F401  (wide: autouse COLUMNS=200)
from traces.columns import ColumnSpans
from traces.load import TraceLoadError
from traces.scan import CHUNK_CHARS
from traces.stream_load import load_trace


@pytest.fixture(params=["graph", "eager", "acl_run", "timing_only"])
def trace_path(request, sim_runs, acl_run, timing_only_trace):
    return {"graph": sim_runs.graph, "eager": sim_runs.tiny, "acl_run": acl_run.path,
            "timing_only": timing_only_trace}[request.param]


def same(a, b, path="$"):
    """``a == b`` with floats equal to 1e-9 relative (sums in another order)."""
    if isinstance(a, float) or isinstance(b, float):
        assert isinstance(a, (int, float)) and isinstance(b, (int, float)), path
        assert a == pytest.approx(b, rel=1e-9, abs=1e-6) or (math.isinf(a) and a == b), (path, a, b)
    elif isinstance(a, dict):
        assert isinstance(b, dict) and list(a) == list(b), (path, list(a), list(b))
        for k in a:
            same(a[k], b[k], f"{path}.{k}")
    elif isinstance(a, list):
        assert isinstance(b, list) and len(a) == len(b), (path, len(a), len(b))
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{path}[{i}]")
    else:
        assert a == b, (path, a, b)


def _both(capsys, monkeypatch, *argv):
    """The output of ``npu-trace *argv`` with the whole-file load, then streamed."""
    outs = []
    for limit in (1 << 40, 0):
        monkeypatch.setattr(stream_load, "STREAM_MIN_BYTES", limit)
        code, out, err = run(capsys, *argv)
        assert code == 0, (argv, err)
        outs.append(out)
    return outs


def test_streamed_load_is_compact_and_in_file_order(trace_path):
    a, b = load_trace(trace_path, stream=False), load_trace(trace_path, stream=True)
    assert isinstance(b.spans, ColumnSpans) and len(b.spans.pipes) > 0 and len(b.spans) == len(a.spans)
    assert not any(s.cat == "pipe" for s in b.spans.kept)
    key = lambda s: (s.track, s.name, s.start_ns, s.dur_ns, s.cat, s.args, s.flow_id, s.flow_out)  # noqa: E731
    assert [key(s) for s in a.spans] == [key(s) for s in b.spans]
    assert a.counters == b.counters and a.metadata == b.metadata and a.devices == b.devices


@pytest.mark.parametrize("extra", [[], ["--phase", "compute"], ["--phase", "steady"], ["--by", "core"],
                                   ["--by", "stream"], ["--by", "kernel"], ["--window", "1us:"]])
def test_summary_json_streamed_equals_whole_file(capsys, monkeypatch, trace_path, extra):
    a, b = _both(capsys, monkeypatch, "summary", trace_path, "--json", "--top", "1000", *extra)
    same(json.loads(b), json.loads(a))


def test_text_commands_streamed_equal_whole_file(capsys, monkeypatch, tmp_path, trace_path):
    for argv in (["summary", trace_path], ["summary", trace_path, "--by", "core", "--phase", "compute"],
                 ["view", trace_path, "--width", "120"], ["view", trace_path, "--collapse", "--tracks", "pipes"],
                 ["view", trace_path, "--tracks", "streams,cores,pipes", "--filter", "a"],
                 ["view", trace_path, "--phase", "compute", "--window", "2us:"],
                 ["diff", trace_path, trace_path, "--json"], ["timeline", trace_path, "--width", "100"]):
        a, b = _both(capsys, monkeypatch, *argv)
        assert a == b, argv
    for flag in ("--csv", "--msprof-csv", "--html"):
        outs = []
        for i in range(2):
            _both(capsys, monkeypatch, "export", trace_path, flag, tmp_path / f"o{i}")
            outs.append((tmp_path / f"o{i}").read_text())
        assert outs[0] == outs[1], flag


def test_gzip_and_small_chunks_stream_the_same(tmp_path, monkeypatch, acl_run):
    p = tmp_path / "t.json.gz"
    with gzip.open(p, "wt") as f:
        f.write(acl_run.path.read_text())
    a = load_trace(acl_run.path, stream=False)
    monkeypatch.setattr("traces.scan.CHUNK_CHARS", 97)     # events cut at every place
    b = load_trace(p, stream=True)
    assert CHUNK_CHARS > 97 and [s.args for s in a.spans] == [s.args for s in b.spans]
    assert a.metadata == b.metadata


@pytest.mark.parametrize("text,why", [('{"traceEvents": [{"ph": "X", "na', "truncated"),
                                      ('{"traceEvents": [{"ph": "M"}] "x": 1}', "expected"),
                                      ('{"traceEvents": []} extra', "extra data"), ("", "empty"),
                                      ('{"traceEvents": [1]}', "only objects"), ("hello", "not a Chrome trace")])
def test_scanner_errors_are_one_line(tmp_path, text, why):
    p = tmp_path / "t.json"
    p.write_text(text)
    with pytest.raises(TraceLoadError) as e:
        load_trace(p, stream=True)
    assert str(p) in str(e.value) and "\n" not in str(e.value) and why in str(e.value)


@pytest.mark.parametrize("command", ["summary", "view", "diff", "export", "timeline"])
@pytest.mark.parametrize("kind", ["truncated", "not JSON", "not a trace", "no spans"])
def test_bad_input_streamed_every_command(capsys, monkeypatch, tmp_path, command, kind):
    """The streamed path (every file counts as big) keeps bad input to one line, exit != 0."""
    from tests.traces.test_tools import BAD
    monkeypatch.setattr(stream_load, "STREAM_MIN_BYTES", 0)
    p = tmp_path / "t.json"
    p.write_text(BAD[kind])
    extra = {"diff": [p], "export": ["--csv", tmp_path / "o.csv"]}.get(command, [])
    code, out, err = run(capsys, command, p, *extra)
    assert code != 0 and err.startswith("npu-trace: error:") and err.count("\n") == 1, (code, err)
    assert "Traceback" not in out + err


def test_readme_shows_the_view_capture_and_the_html_screenshot():
    """The README shows rich's SVG export of ``npu-trace view`` and the headless-Chromium
    screenshot of ``npu-trace export --html``; both files are there and are what they say."""
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    readme = (root / "README.md").read_text()
    svg, png = root / "docs" / "npu_trace_view.svg", root / "docs" / "npu_trace_html.png"
    assert "](docs/npu_trace_view.svg)" in readme and "](docs/npu_trace_html.png)" in readme
    text = svg.read_text()
    assert text.lstrip().startswith("<svg") and "Generated with Rich" in text and "npu-trace&#160;view" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000


def test_old_trace_kernel_bytes_from_pipe_columns(tmp_path):
    """A kernel without bytes args takes the bytes of its GM pipe spans (an old trace):
    the same from the columns, including pipe args the columns keep aside."""
    from traces.analysis import op_summary
    ev = [{"ph": "M", "name": "process_name", "pid": 2, "args": {"name": "device 0"}},
          {"ph": "M", "name": "thread_name", "pid": 2, "tid": 1, "args": {"name": "stream 1"}},
          {"ph": "M", "name": "thread_name", "pid": 2, "tid": 2, "args": {"name": "AIC0 MTE2"}},
          {"ph": "M", "name": "thread_name", "pid": 2, "tid": 3, "args": {"name": "AIC0 CUBE"}}]
    for k in range(3):
        t = 10.0 * k
        ev += [{"ph": "X", "name": "Mm", "cat": "task", "pid": 2, "tid": 1, "ts": t, "dur": 8.0,
                "args": {"task_type": "AI_CORE"}},
               {"ph": "X", "name": "Mm", "cat": "pipe", "pid": 2, "tid": 2, "ts": t + 1, "dur": 2.0,
                "args": {"tile": 0, "bytes": 100 + k}},
               {"ph": "X", "name": "Mm", "cat": "pipe", "pid": 2, "tid": 2, "ts": t + 3, "dur": 1.0,
                "args": {"bytes": 7.5, "note": "x"}},
               {"ph": "X", "name": "Mm", "cat": "pipe", "pid": 2, "tid": 3, "ts": t + 3, "dur": 2.0,
                "args": {"tile": 0}}]
    p = tmp_path / "old.json"
    p.write_text(json.dumps({"traceEvents": ev}))
    a, b = op_summary(load_trace(p, stream=False)), op_summary(load_trace(p, stream=True))
    assert a[0]["bytes"] == 3 * 107.5 + 3 and a[0]["bytes_from_pipes"]
    same(b, a)


@pytest.mark.parametrize("extra", [[], ["--phase", "steady"], ["--by", "core"], ["--window", "1us:"]])
def test_bounded_summary_in_small_chunks_equals_whole_file(capsys, monkeypatch, trace_path, extra):
    """The bounded summary (pipe spans folded into aggregates, :mod:`traces.bounded`)
    with chunks of 7 spans, so every aggregate is merged across many chunks."""
    import traces.bounded as bounded
    monkeypatch.setattr(bounded, "SPAN_CHUNK", 7)
    for argv in (["summary", trace_path, "--json", "--top", "1000", *extra], ["summary", trace_path, *extra]):
        a, b = _both(capsys, monkeypatch, *argv)
        if "--json" in argv:
            same(json.loads(b), json.loads(a))
        else:
            assert a == b, argv


def test_bounded_view_in_small_chunks_equals_whole_file(capsys, monkeypatch, trace_path):
    """The bounded view (rows found in a first pass, cells filled chunk by chunk in a
    second) draws the same timeline as the whole-file load."""
    import traces.bounded as bounded
    monkeypatch.setattr(bounded, "SPAN_CHUNK", 7)
    for argv in (["view", trace_path, "--width", "120"], ["view", trace_path, "--collapse", "--tracks", "pipes"],
                 ["view", trace_path, "--tracks", "streams,cores,pipes", "--filter", "a"],
                 ["view", trace_path, "--phase", "compute", "--window", "2us:"]):
        a, b = _both(capsys, monkeypatch, *argv)
        assert a == b, argv


def test_bounded_summary_holds_no_pipe_spans(trace_path):
    from traces.bounded import PipeAggregate
    from traces.bounded_load import load_bounded
    data = load_bounded(trace_path)
    assert isinstance(data.spans.pipes, PipeAggregate) and len(data.spans.pipes) > 0
    assert not hasattr(data.spans.pipes, "start")     # no per-span column


def test_old_trace_kernel_bytes_bounded(tmp_path, monkeypatch, capsys):
    """Kernels without bytes args on the bounded path: a second pass sums their GM pipe spans."""
    test_old_trace_kernel_bytes_from_pipe_columns(tmp_path)
    a, b = _both(capsys, monkeypatch, "summary", tmp_path / "old.json", "--json")
    same(json.loads(b), json.loads(a))
    assert json.loads(b)["ops"][0]["bytes"] == 3 * 107.5 + 3
