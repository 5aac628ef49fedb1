"""Compact kernel records and packed spans (npu_sim/records.py) read back exactly,
and host memory per launch stays small at the trace levels "off" and "kernels".

Before the typed columns (issue 16, "memory and size guards"), a tiny timing-only
launch (Add 1x768 on the tiny chip) kept 1,994 B of host memory at trace level off
and 3,257 B at kernels (tracemalloc, 3,000 launches); with them, about 400 and 880.
"""
from __future__ import annotations

import gc
import json
import tracemalloc

import numpy as np
import pytest

import opsnn
from acl_runtime import acl, profiler
from acl_runtime.runtime import runtime
from npu_sim.records import DictColumns, KernelRecords, SpanColumns
from opsnn.base.dtypes import from_numpy_dtype


def _sample() -> list[dict]:
    return [
        {"name": "Add", "stream": 1, "start_ns": 0.0, "dur_ns": 12.5, "shapes": [[1, 768], [1, 768]],
         "tiling": {"block_dim": 2, "per_block": 384}, "bound": "latency", "ok": True, "none": None,
         "big": 1 << 70, "neg": -3, "t": (1, "a"), "nested": {"a": {"b": 1.5}}, "empty": {}},
        {"name": "Mul", "stream": 2, "start_ns": 1, "dur_ns": float("inf"), 3: "int key"},
        {},
    ]


def test_dict_columns_round_trip_keeps_order_values_and_types():
    cols = DictColumns()
    src = _sample()
    idx = [cols.add(d) for d in src]
    for i, d in zip(idx, src):
        got = cols.get(i)
        assert got == d and list(got) == list(d)
        assert [type(v) for v in got.values()] == [type(v) for v in d.values()]
        assert json.dumps(got) == json.dumps(d)
    assert cols.get(-1) == {} and len(cols) == 3


def test_static_part_is_kept_by_reference():
    static = {"shapes": [[2, 3]], "dtype": "float16"}
    cols = DictColumns()
    i = cols.add(dict(static, dur_ns=4.0), static)
    got = cols.get(i)
    assert got == {"shapes": [[2, 3]], "dtype": "float16", "dur_ns": 4.0} and got["shapes"] is static["shapes"]
    # a value that is not the static one's object is stored, not taken from static
    j = cols.add({"shapes": [[9]], "dtype": "float16"}, static)
    assert cols.get(j)["shapes"] == [[9]]


def test_unpicklable_leaves_are_kept_as_they_are():
    fn = lambda: None  # noqa: E731
    cols = DictColumns()
    i = cols.add({"fns": [fn], "f": fn})
    assert cols.get(i)["fns"][0] is fn and cols.get(i)["f"] is fn


def test_kernel_records_behave_as_a_list():
    recs = KernelRecords()
    assert recs == [] and not recs and len(recs) == 0
    src = _sample()[:2]
    for d in src:
        recs.append(d)
    assert recs == src and list(recs) == src and recs[1:] == src[1:] and recs[-1] == src[-1]
    got = recs[0]
    got["name"] = "changed"
    assert recs[0]["name"] == "Add"            # a read is a copy
    recs.clear()
    assert len(recs) == 0


def test_span_columns_keep_odd_entries_as_they_are():
    cols = SpanColumns()
    cache: dict = {}
    shared = {"k": 1}
    cols.add_span(("h", "t"), "a", 0.0, 1.0, "host", shared, None, False, cache)
    cols.add_span(("h", "t"), "b", 1.0, 1.0, "host", shared, 7, True, cache)
    cols.add_span(("h", "t"), "c", 2, 1.0, "host", "not a dict", None, False, cache)   # int start
    cols.add_pipe((("d", "AIV0 MTE2"), "MTE2", 0.5, 0.25, 3, 0))
    out = list(cols.entries())
    assert out[0] == (("h", "t"), "a", 0.0, 1.0, "host", {"k": 1}, None, False)
    assert out[1][6:] == (7, True) and out[1][5] is out[0][5]          # shared args: one copy
    assert out[2] == (("h", "t"), "c", 2, 1.0, "host", "not a dict", None, False) and type(out[2][2]) is int
    assert out[3] == (("d", "AIV0 MTE2"), "MTE2", 0.5, 0.25, 3, 0)


def _bytes_per_launch(level: str, n: int) -> float:
    if runtime().initialized:
        acl.finalize()
    assert acl.init(chip="tiny", timing_only=True) == 0 and acl.rt.set_device(0) == 0
    profiler.set_level(level)
    try:
        def tensor():
            ptr, ret = acl.rt.malloc(768 * 2, 0)
            assert ret == 0
            return opsnn.aclCreateTensor((1, 768), from_numpy_dtype(np.dtype(np.float16)), None, 0, 2, (1, 768), ptr)
        x, y = tensor(), tensor()
        ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
        assert ret == 0 and opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
        for _ in range(20):                       # warm every cache first
            opsnn.aclnnAdd(0, ws, ex, 0)
        assert acl.rt.synchronize_device() == 0
        gc.collect()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            for i in range(n):
                opsnn.aclnnAdd(0, ws, ex, 0)
                if i % 250 == 249:
                    assert acl.rt.synchronize_device() == 0
            assert acl.rt.synchronize_device() == 0
            gc.collect()
            grown = tracemalloc.get_traced_memory()[0] - base
        finally:
            tracemalloc.stop()
        assert len(runtime().kernel_records()) == n + 20
        return grown / n
    finally:
        acl.finalize()


def test_host_memory_per_launch_is_small_at_off_and_kernels():
    """Retained host bytes per tiny launch: well under today's 1,994 (off) and 3,257
    (kernels) -- the typed columns keep about 400 and 880."""
    off = _bytes_per_launch("off", 1000)
    kernels = _bytes_per_launch("kernels", 1000)
    assert off < 700, off
    assert kernels < 1400, kernels


def test_spilled_segments_read_back_exactly(monkeypatch):
    """With small segments, most stored dicts live in the spool file; reads (random,
    negative, slices, iteration) give what was stored, and clear() drops the file."""
    import npu_sim.records as R
    monkeypatch.setattr(R, "SPILL_EVERY", 7)
    recs = KernelRecords()
    static = {"shapes": [[4, 4]], "dtype": "float16"}
    src = [dict(static, name=f"op{k % 3}", start_ns=float(k), dur_ns=k / 3, stream=k % 2,
                pipe_busy_ns={"MTE2": k * 1.5}) for k in range(50)]
    for d in src:
        recs.append(d, static)
    assert len(recs) == 50 and recs._cols._base == 49 and len(recs._cols._spool) == 7
    assert list(recs) == src and recs[3] == src[3] and recs[-1] == src[-1] and recs[10:20] == src[10:20]
    assert recs[45] == src[45] and recs[0] == src[0] and recs[0]["shapes"] is static["shapes"]
    with pytest.raises(IndexError):
        recs[50]
    recs.clear()
    assert len(recs) == 0 and recs._cols._spool is None


def test_unpicklable_leaf_stops_spilling_but_stays_correct(monkeypatch):
    import npu_sim.records as R
    monkeypatch.setattr(R, "SPILL_EVERY", 4)
    fn = lambda: None  # noqa: E731
    cols = DictColumns()
    for k in range(10):
        cols.add({"k": k, "f": fn if k == 5 else None})
    assert [cols.get(k)["k"] for k in range(10)] == list(range(10)) and cols.get(5)["f"] is fn


def test_host_memory_stays_bounded_with_spilling(monkeypatch):
    """With segments of 256 records, retained host bytes per launch at level off fall
    far below the ~270 B of the in-memory columns: what stays is one segment."""
    import npu_sim.records as R
    monkeypatch.setattr(R, "SPILL_EVERY", 256)
    off = _bytes_per_launch("off", 2000)
    assert off < 150, off


def test_spilled_spans_read_back_in_order(monkeypatch):
    """A recorder whose packed spans spill in segments of 5 gives the same spans as
    one that keeps them all in memory."""
    import npu_sim.records as R
    from npu_sim.trace import TraceRecorder

    def record(rec):
        shared = {"kernel": "Add", "shapes": [[2, 3]]}
        for i in range(23):
            rec.span(("host", "thread 0"), "aclnnAdd", float(i), 1.0, "host", shared, i, True)
            rec.span(("device 0", "stream 1"), "Add", float(i), 2.0, "task", {"dur": i / 7, "n": i}, i)
            rec.pipe_span(("device 0", "AIV0 MTE2"), "MTE2", float(i), 0.5, i, 64 * i)
            if i % 4 == 3:
                rec.pack()
        rec.span(("host", "thread 0"), "odd", 1, 1.0, "host", "not a dict")
        rec.pack()
        return rec
    ref = record(TraceRecorder())
    ref_counts, ref_spans = ref.span_counts(), ref.spans
    monkeypatch.setattr(R, "SPILL_EVERY", 5)
    small = record(TraceRecorder())
    assert small._packed._spilled > 40 and len(small) == len(ref_spans) == 70
    assert small.span_counts() == ref_counts == (70, 23)
    assert small.spans == ref_spans
