"""``npu_sim.trace.TraceRecorder.entries`` (plain tuples, no ``Span`` objects) and the
trace writer built on it (``Profiler.trace_entries``): the entries are the spans'
fields in the same order, the writer builds no ``Span`` and writes the reference
bytes, whether the recorder holds packed, unpacked or already-thawed spans."""
from __future__ import annotations

import numpy as np
import pytest

import npu_sim.trace as trace_mod
from acl_runtime import acl
from acl_runtime.trace_writer import write_trace_fast
from npu_sim.trace import Span, TraceRecorder
from tests.perf.test_trace_fast_paths import _run
from tests.perf.test_trace_text_edges import _odd_spans
from traces.chrome_trace import write_chrome_trace


def _as_span(e) -> Span:
    if len(e) == 6:
        return Span(e[0], e[1], e[2], e[3], "pipe", {"tile": e[4], "bytes": e[5]} if e[5] else {"tile": e[4]})
    return Span(*e)


def _fill(rec: TraceRecorder) -> None:
    shared = {"op": "Add", "n": 3}
    tr = ("device 0", "stream 1")
    sink = rec.pipe_sink()
    for i in range(50):
        rec.span(tr, f"k{i % 3}", float(10 * i), 5.0, "task", shared if i % 2 else {"i": i}, flow_id=i)
        sink((("device 0", "AIC0 MTE2"), "MTE2", float(10 * i), 1.5, i, 512 * (i % 2)))
        if i == 20:
            rec.pack()
    rec.span(tr, "odd", 600, 1, "task", None)          # an int time: stored as it is


@pytest.mark.parametrize("pre", ["none", "pack", "spans"])
def test_entries_are_the_span_fields_in_order(pre):
    rec = TraceRecorder()
    _fill(rec)
    if pre == "pack":
        rec.pack()
    elif pre == "spans":
        rec.spans   # noqa: B018 - thaw everything first
    ents = rec.entries()
    assert all(type(e) is tuple and len(e) in (6, 8) for e in ents)
    assert len(ents) == len(rec)
    assert rec.entries() == ents            # reading changes nothing
    assert [_as_span(e) for e in ents] == rec.spans


def test_fast_writer_builds_no_span_and_matches_reference(tmp_path, monkeypatch):
    rt = _run()
    try:
        _odd_spans(rt.device.recorder)
        with monkeypatch.context() as m:
            m.setattr(trace_mod, "_thaw", lambda e: pytest.fail("a Span was built"))
            b = write_trace_fast(rt.profiler, tmp_path / "fast.json", metadata={"m": np.int32(1)})
        a = write_chrome_trace(rt.profiler, tmp_path / "ref.json", metadata={"m": np.int32(1)})
        assert a.read_bytes() == b.read_bytes() and len(a.read_bytes()) > 1000
        c = write_trace_fast(rt.profiler, tmp_path / "again.json", metadata={"m": np.int32(1)})   # from thawed spans
        assert c.read_bytes() == a.read_bytes()
    finally:
        acl.finalize()


def test_device_source_still_uses_spans(tmp_path):
    rt = _run()
    try:
        b = write_trace_fast(rt.device, tmp_path / "fast.json")
        a = write_chrome_trace(rt.device, tmp_path / "ref.json")
        assert a.read_bytes() == b.read_bytes()
    finally:
        acl.finalize()
