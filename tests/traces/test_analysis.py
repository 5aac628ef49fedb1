"""Analyses agree with the spans they summarise, from a recorder and from a file."""
from __future__ import annotations

import pytest

from npu_sim.trace import Span, TraceRecorder
from tests.traces.conftest import K, M, N
from traces import (as_trace_data, core_counts, counter_summary, critical_path, device_span, engine_utilization,
                    from_chrome_trace, idle_gaps, op_summary, overlap, stream_summary, to_chrome_trace)
from traces.analysis import engine_busy
from traces.intervals import is_sync, is_task
from traces.kernels import engine_busy_shares, engine_cores, op_rows


def _task_time(spans, name=None):
    return sum(s.dur_ns for s in spans if is_task(s) and not is_sync(s) and (name is None or s.name == name))


def test_loading_a_file_restores_the_spans(acl_run):
    data = as_trace_data(acl_run.path)
    key = lambda s: (s.track, s.name, s.cat)  # noqa: E731
    assert sorted(map(key, data.spans)) == sorted(map(key, acl_run.rec.spans))
    for a, b in zip(sorted(data.spans, key=lambda s: (s.track, s.start_ns)),
                    sorted(acl_run.rec.spans, key=lambda s: (s.track, s.start_ns))):
        assert a.start_ns == pytest.approx(b.start_ns, abs=1e-6)
        assert a.dur_ns == pytest.approx(b.dur_ns, abs=1e-6)
        assert (a.flow_id, a.flow_out) == ((b.flow_id, b.flow_out) if b.flow_id in _paired(acl_run) else (None, False))
    assert data.metadata["test"] == "acl_run" and data.metadata["chip"] == "tiny"
    assert len(data.counters) == len(acl_run.rec.counters)
    # and writing it again gives the same trace
    again = to_chrome_trace(data.spans, data.counters, {k: v for k, v in data.metadata.items() if k != "generator"})
    assert again["traceEvents"] == acl_run.loaded["traceEvents"]


def _paired(run):
    out = {s.flow_id for s in run.rec.spans if s.flow_out}
    return out & {s.flow_id for s in run.rec.spans if s.flow_id is not None and not s.flow_out}


@pytest.mark.parametrize("source", ["rec", "path", "loaded", "dev"])
def test_op_summary_time_is_the_sum_of_task_spans(acl_run, source):
    rows = op_summary(getattr(acl_run, source))
    spans = acl_run.rec.spans
    assert sum(r["total_ns"] for r in rows) == pytest.approx(_task_time(spans), rel=1e-12)
    for r in rows:
        assert r["total_ns"] == pytest.approx(_task_time(spans, r["name"]), rel=1e-12)
        assert r["mean_ns"] == pytest.approx(r["total_ns"] / r["count"])
    assert sum(r["share"] for r in rows) == pytest.approx(1.0)
    assert [r["total_ns"] for r in rows] == sorted((r["total_ns"] for r in rows), reverse=True)
    by = {r["name"]: r for r in rows}
    assert set(by) == {"Matmul", "Add", "MEMCPY H2D", "MEMCPY D2H"}
    mm = by["Matmul"]
    assert mm["flops"] == 2 * M * N * K and mm["task_type"] == "AI_CORE"
    assert mm["tflops"] == pytest.approx(mm["flops"] / mm["total_ns"] / 1e3)
    assert mm["bytes_from_pipes"] and mm["bytes"] >= 2 * (M * K + K * N + M * N) * 0.99
    assert by["Add"]["bytes"] == 3 * 4096 * 4 and not by["Add"]["bytes_from_pipes"]
    assert by["Add"]["gb_per_s"] == pytest.approx(by["Add"]["bytes"] / by["Add"]["total_ns"])
    assert set(mm["pipe_ratio"]) == {"MTE2", "MTE1", "CUBE", "FIXPIPE", "SCALAR"}
    assert all(0.0 <= v <= 1.0 for r in rows for v in r["pipe_ratio"].values())


def test_op_summary_sync_tasks_on_request(acl_run):
    names = {r["name"] for r in op_summary(acl_run.rec, include_sync=True)}
    assert {"EVENT_RECORD", "STREAM_WAIT_EVENT"} <= names


def test_engine_utilization_in_unit_range_and_counts_chip_cores(acl_run, device_run):
    for run in (acl_run, device_run):
        rows = engine_utilization(run.path if hasattr(run, "path") else run.dev)
        assert {(r["core_type"], r["pipe"]) for r in rows} == {
            ("AIC", p) for p in ("MTE2", "MTE1", "CUBE", "FIXPIPE")} | {("AIV", p) for p in ("MTE2", "VECTOR", "MTE3")}
        for r in rows:
            assert 0.0 <= r["utilization"] <= 1.0
            assert r["cores"] == (2 if r["core_type"] == "AIC" else 4) and r["cores_from"] == "chip"
            start, end = device_span(run.rec, "device 0")
            busy = sum(s.dur_ns for s in run.rec.spans if s.cat == "pipe" and s.track[1].startswith(r["core_type"])
                       and s.track[1].endswith(" " + r["pipe"]))
            assert r["busy_ns"] == pytest.approx(busy)
            assert r["utilization"] == pytest.approx(busy / (r["cores"] * (end - start)))


def test_core_counts_fall_back_to_the_trace_or_chip_figures(device_run):
    bare = to_chrome_trace(device_run.rec)             # no metadata: count cores seen
    assert core_counts(bare, "device 0") == {"AIC": (2, "trace"), "AIV": (4, "trace")}
    # traces import no npu_sim: the chip's figures come from the trace metadata, not a preset
    named = to_chrome_trace(device_run.rec, metadata={"chip": "ascend910b2",
                                                      "chip_figures": {"aic_count": 24, "aiv_count": 48}})
    assert core_counts(named, "device 0") == {"AIC": (24, "chip"), "AIV": (48, "chip")}
    only_name = to_chrome_trace(device_run.rec, metadata={"chip": "ascend910b2"})   # an old trace: cores seen
    assert core_counts(only_name, "device 0") == {"AIC": (2, "trace"), "AIV": (4, "trace")}
    (row,) = engine_busy(only_name)
    assert row["cores_from"] == "trace"


def test_op_rows_weight_by_time_and_pick_dominant_bound():
    items = [("Op", 100.0, {"bound": "latency", "compute_util": 0.1, "memory_util": 0.2, "pipe_busy_ns": {"CUBE": 10.0},
                            "core_ns": {"AIC": 100.0}, "flops": 1000}),
             ("Op", 300.0, {"bound": "compute", "compute_util": 0.9, "memory_util": 0.4, "pipe_busy_ns": {"CUBE": 270.0},
                            "core_ns": {"AIC": 300.0}, "flops": 3000})]
    r = op_rows(items)["Op"]
    assert r["count"] == 2 and r["total_ns"] == 400.0 and r["flops"] == 4000
    assert r["compute_util"] == pytest.approx((0.1 * 100 + 0.9 * 300) / 400)
    assert r["mac_ratio"] == pytest.approx(280 / 400)
    assert r["bound"] == "compute" and r["bound_ns"] == {"compute": 300.0, "memory": 0.0, "latency": 100.0}
    assert r["flop_per_s"] == pytest.approx(4000 / 400 * 1e9)


def test_op_rows_bytes_are_the_stated_ones_else_the_counted_ones():
    rows = op_rows([("A", 10.0, {"bytes": 100, "gm_bytes": 400}), ("A", 10.0, {"gm_bytes": 60}),
                    ("B", 5.0, {"bytes": 50}), ("C", 5.0, {})])
    assert rows["A"]["bytes"] == 160 and rows["A"]["bytes_counted"] and rows["A"]["gb_per_s"] == 8.0
    assert rows["B"]["bytes"] == 50 and not rows["B"]["bytes_counted"]
    assert rows["C"]["bytes"] == 0 and rows["C"]["gb_per_s"] == 0.0


def test_no_rate_from_a_span_cut_to_a_sliver():
    """A copy cut by --window/--phase to 1e-6 ns keeps its bytes; bytes / 1e-6 ns is no
    rate, so GB/s is 0 (printed "-"), not 1e12."""
    rows = op_rows([("MEMCPY H2D", 1e-6, {"bytes": 10**6}), ("Add", 2.0, {"bytes": 8, "flops": 2})])
    assert rows["MEMCPY H2D"]["gb_per_s"] == 0.0 and rows["MEMCPY H2D"]["tflops"] == 0.0
    assert rows["Add"]["gb_per_s"] == 4.0


def test_engine_cores_per_architecture():
    figs = {"aic_count": 24, "aiv_count": 48, "architecture": "separated"}
    sep = engine_cores(figs)
    assert sep["CUBE"] == 24 and sep["VECTOR"] == 48 and sep["MTE2"] == 72
    coupled = engine_cores({"aic_count": 8, "aiv_count": 7, "architecture": "coupled"})
    assert coupled["CUBE"] == 8 and coupled["VECTOR"] == 15 and coupled["MTE2"] == 15
    assert engine_busy_shares([{"pipe_busy_ns": {"CUBE": 240.0}}], figs, 10.0)["CUBE"] == 1.0
    assert engine_busy_shares([{"pipe_busy_ns": {"CUBE": 240.0}}], figs, 0.0)["CUBE"] == 0.0


def test_overlap_partitions_the_active_span(device_run, acl_run):
    for run, level in ((device_run, "pipe"), (acl_run, "pipe"), (acl_run, "task")):
        (r,) = overlap(run.rec, level=level)
        assert r["copy_only_ns"] + r["compute_only_ns"] + r["both_ns"] + r["idle_ns"] == pytest.approx(r["span_ns"])
        assert 0 <= r["both_ns"] <= min(r["copy_ns"], r["compute_ns"])
        assert 0 <= r["copy_hidden_share"] <= 1 and 0 <= r["overlap_share"] <= 1
    (r,) = overlap(device_run.rec)
    assert r["both_ns"] > 0  # double buffering: copies run under compute
    with pytest.raises(ValueError):
        overlap(device_run.rec, level="core")


def test_overlap_on_hand_made_intervals():
    rec = TraceRecorder()
    rec.span(("device 0", "AIV0 MTE2"), "k", 0.0, 10.0, "pipe")
    rec.span(("device 0", "AIV1 MTE2"), "k", 5.0, 10.0, "pipe")     # copy: [0, 15)
    rec.span(("device 0", "AIV0 VECTOR"), "k", 10.0, 10.0, "pipe")  # compute: [10, 20)
    rec.span(("device 0", "AIV0 MTE3"), "k", 30.0, 10.0, "pipe")    # copy: [30, 40)
    (r,) = overlap(rec)
    assert (r["span_ns"], r["copy_ns"], r["compute_ns"], r["both_ns"], r["idle_ns"]) == (40, 25, 10, 5, 10)


def test_stream_summary_busy_wait_idle_add_up(acl_run):
    rows = stream_summary(acl_run.path)
    assert len(rows) == 2 and rows[0]["stream"] == "stream 1"  # default stream first
    for r in rows:
        assert r["busy_ns"] + r["wait_ns"] + r["idle_ns"] == pytest.approx(r["span_ns"])
        assert 0 <= r["utilization"] <= 1
    s1, s2 = rows
    assert s1["kernels"] == 1 and s1["syncs"] == 1 and s2["kernels"] == 1 and s2["memcpys"] == 1
    assert s2["syncs"] == 1


def test_idle_gaps_and_critical_path(acl_run):
    gaps = idle_gaps(acl_run.rec)
    assert gaps and [g["dur_ns"] for g in gaps] == sorted((g["dur_ns"] for g in gaps), reverse=True)
    assert sum(g["dur_ns"] for g in gaps) == pytest.approx(sum(r["idle_ns"] for r in stream_summary(acl_run.rec)))
    # the host is slower than the tiny device: the device waits for launches
    assert any(g["host_bound"] for g in gaps)
    assert idle_gaps(acl_run.rec, top=2) == gaps[:2]
    assert all(g["dur_ns"] >= 3000 for g in idle_gaps(acl_run.rec, min_gap_ns=3000))
    (cp,) = critical_path(acl_run.path)
    longest = max(stream_summary(acl_run.rec), key=lambda r: r["span_ns"])
    assert cp["stream"] == longest["stream"] and cp["span_ns"] == pytest.approx(longest["span_ns"])
    assert cp["busy_ns"] + cp["wait_ns"] + cp["idle_ns"] == pytest.approx(cp["span_ns"])
    assert sum(t["gap_before_ns"] for t in cp["tasks"]) == pytest.approx(cp["idle_ns"])
    assert 0 < cp["host_bound_idle_ns"] <= cp["idle_ns"]


def test_counter_summary_peak(acl_run):
    r, l2 = sorted(counter_summary(acl_run.path), key=lambda r: r["track"] != "device memory")
    mem = [c for c in acl_run.rec.counters if c.track == "device memory"]
    assert (r["track"], r["name"]) == ("device memory", "in use (bytes)")
    assert r["max"] == max(c.value for c in mem) and r["samples"] == len(mem)
    assert (l2["track"], l2["name"]) == ("device 0", "L2 hit rate (%)")
    assert l2["samples"] == len(acl_run.dev.kernel_records) and 0 <= l2["min"] <= l2["max"] <= 100


def test_unknown_device_is_a_clear_error(acl_run):
    with pytest.raises(ValueError, match="device 7"):
        op_summary(acl_run.rec, device="device 7")


def test_empty_and_host_only_traces():
    rec = TraceRecorder()
    rec.span(("host", "thread 0"), "malloc", 0.0, 10.0, "host")
    for src in (rec, to_chrome_trace(rec), from_chrome_trace({"traceEvents": []})):
        assert op_summary(src) == [] and engine_utilization(src) == [] and stream_summary(src) == []
        assert overlap(src) == [] and critical_path(src) == [] and idle_gaps(src) == []
    assert op_summary([Span(("device 0", "stream 1"), "K", 0.0, 0.0, "task")])[0]["tflops"] == 0.0


def test_op_summary_has_cann_ratios_and_bound(acl_run):
    """Kernel rows carry msprof-style ratios in [0, 1] and a bound class; the tiny
    Matmul and Add of this run are dominated by the 3 us launch: latency-bound."""
    by = {r["name"]: r for r in op_summary(acl_run.rec)}
    for name in ("Matmul", "Add"):
        r = by[name]
        for key in ("mac_ratio", "vec_ratio", "scalar_ratio", "mte1_ratio", "mte2_ratio", "mte3_ratio",
                    "fixpipe_ratio", "compute_util", "memory_util"):
            assert 0.0 <= r[key] <= 1.0, (name, key)
        assert r["bound"] == "latency" and r["bound_ns"]["latency"] == pytest.approx(r["total_ns"])
    assert by["Matmul"]["mac_ratio"] > 0 and by["Matmul"]["vec_ratio"] == 0
    assert by["Add"]["vec_ratio"] > 0 and by["Add"]["mac_ratio"] == 0
    assert "bound" not in by["MEMCPY H2D"]
