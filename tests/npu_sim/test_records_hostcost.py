"""Span and kernel-record columns (npu_sim/records.py): entries whose ints do not fit
int64 are kept as they are (packing never raises), and column reads of kernel
records give the values a full read would."""
from __future__ import annotations

from npu_sim.records import SPILL_EVERY, KernelRecords, SpanColumns
from npu_sim.trace import TraceRecorder

_BIG = 1 << 63


def test_pipe_and_span_ints_outside_int64_are_kept_as_they_are():
    """add_pipe/add_pipes/add_span with an int of 64 bits or more (or the int column's
    None marker as a flow id) store the entry unchanged instead of raising."""
    rec = TraceRecorder()
    sink = rec.pipe_sink()
    tr = ("device 0", "AIC0 MTE2")
    pipes = [(tr, "MTE2", 1.0, 2.0, 0, 64), (tr, "MTE2", 3.0, 1.0, _BIG, 64), (tr, "MTE2", 4.0, 1.0, 1, -_BIG - 1),
             (tr, "MTE2", 5.0, 1.0, 2, 8)]
    for e in pipes:
        sink(e)
    sink(pipes[1])   # a lone pipe entry goes through add_pipe
    rec.span(("host", "thread 0"), "launch", 6.0, 1.0, "host", None, flow_id=_BIG, flow_out=True)
    rec.span(("host", "thread 0"), "launch", 7.0, 1.0, "host", None, flow_id=-_BIG, flow_out=True)
    rec.span(("host", "thread 0"), "launch", 8.0, 1.0, "host", None, flow_id=3, flow_out=True)
    before = rec.entries()
    rec.pack()
    assert rec.entries() == before
    assert [s.flow_id for s in rec.spans if s.cat == "host"] == [_BIG, -_BIG, 3]
    assert [s.args["tile"] for s in rec.spans if s.cat == "pipe"] == [0, _BIG, 1, 2, _BIG]


def test_add_pipes_chunk_with_a_big_int_leaves_columns_consistent():
    """A big int in a bulk run falls back entry by entry before any column grows."""
    cols = SpanColumns()
    tr = ("d", "p")
    run = [(tr, "V", float(k), 1.0, k, 8) for k in range(10)]
    run[5] = (tr, "V", 5.0, 1.0, 5, _BIG)
    cols.add_pipes(run)
    assert len({len(c) for c in cols._cols()}) == 1
    assert list(cols.entries()) == run


def test_kernel_record_columns_match_full_reads():
    """KernelRecords.columns gives, per record from ``since``, the values of the
    named keys (a default for a missing key), as reading each dict would."""
    recs = KernelRecords()
    tail = {"task_type": "AI_CORE", "l2_hit_rate": 0.25, "pipe_busy_ns": {"MTE2": 3.0}}
    for k in range(5):
        recs.append_parts({"name": "Add", "stream": 1, "start_ns": float(k), "dur_ns": 2.0}, tail)
    recs.append({"name": "Odd", "start_ns": 9, "dur_ns": 1.5})   # no l2_hit_rate, an int start
    keys = ("start_ns", "dur_ns", "l2_hit_rate")
    want = [tuple(r.get(k, 0.0) for k in keys) for r in recs]
    assert recs.columns(keys, 0.0) == want
    assert recs.columns(keys, 0.0, since=4) == want[4:]
    assert recs.columns(keys, 0.0, since=6) == []


def test_kernel_record_columns_across_spilled_segments(monkeypatch):
    import npu_sim.records as records
    monkeypatch.setattr(records, "SPILL_EVERY", 4)
    recs = KernelRecords()
    for k in range(11):
        recs.append({"start_ns": float(k), "dur_ns": 1.0, "l2_hit_rate": k / 10})
    want = [(r["start_ns"] + 0.0, r["l2_hit_rate"]) for r in recs]
    assert recs.columns(("start_ns", "l2_hit_rate"), None) == want
    assert recs.columns(("start_ns", "l2_hit_rate"), None, since=3) == want[3:]
    assert SPILL_EVERY == 1 << 14
