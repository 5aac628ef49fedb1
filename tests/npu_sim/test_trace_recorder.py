"""TraceRecorder storage: spans kept flat and packed into chunks the garbage collector
does not track, with ``recorder.spans`` unchanged (Span objects, recording order,
args equal to what was recorded)."""
from __future__ import annotations

import gc

import numpy as np
import pytest

from npu_sim.trace import Span, TraceRecorder

HOST = ("host", "thread 0")
PIPE = ("device 0", "AIV0 MTE2")


def _record(rec: TraceRecorder, shared: dict) -> list[Span]:
    """Record a mix of spans and pipe spans; returns the Spans expected back."""
    want = []
    for i in range(5):
        rec.span(HOST, f"launch {i}", float(i), 1.0, "host", shared, i + 1, True)
        want.append(Span(HOST, f"launch {i}", float(i), 1.0, "host", shared, i + 1, True))
        rec.pipe_span(PIPE, "MTE2", i + 0.5, 0.25, i, 64 * i)
        want.append(Span(PIPE, "MTE2", i + 0.5, 0.25, "pipe", {"tile": i, "bytes": 64 * i} if i else {"tile": i}))
        task_args = {"block_dim": 4, "shapes": [[2, 3], (4,)], "pipe_busy_ns": {"MTE2": 1.5}, "key": np.int64(7)}
        rec.span(("device 0", "stream 1"), "Add", i + 1.0, 2.0, "task", task_args, i + 1)
        want.append(Span(("device 0", "stream 1"), "Add", i + 1.0, 2.0, "task", task_args, i + 1, False))
    return want


@pytest.mark.parametrize("pack_at", [None, 3, "each"])
def test_spans_round_trip_through_packing(pack_at):
    """Whatever was packed and when, ``spans`` gives the same Spans in recording order,
    with args equal in value and type (lists stay lists, numpy scalars numpy)."""
    rec = TraceRecorder()
    shared = {"kernel": "Add", "tiling": [1, 2]}
    want = _record(rec, shared)
    if pack_at == 3:
        rec.pack()
        rec.span(HOST, "late", 9.0, 1.0, "host")
        want.append(Span(HOST, "late", 9.0, 1.0, "host", None, None, False))
    elif pack_at == "each":
        rec.pack()
        rec.pack()      # nothing new: no empty chunk, no change
    got = rec.spans
    assert got == want
    assert len(rec) == len(want)
    assert all(type(s) is Span for s in got)
    task = got[2].args
    assert type(task["shapes"]) is list and type(task["shapes"][1]) is tuple and type(task["key"]) is np.int64
    assert rec.spans is got                      # a second read is the same list, nothing to convert


def test_shared_args_stay_shared_after_a_round_trip():
    """Host spans of one executor share one args dict; after packing they share one copy."""
    rec = TraceRecorder()
    shared = {"kernel": "Add"}
    for i in range(4):
        rec.span(HOST, "aclnnAdd", float(i), 1.0, "host", shared, i, True)
    rec.pack()
    spans = rec.spans
    assert all(s.args == shared for s in spans)
    assert len({id(s.args) for s in spans}) == 1


def test_unpicklable_args_are_kept_as_they_are():
    rec = TraceRecorder()
    fn = lambda: None  # noqa: E731 - not picklable
    rec.span(HOST, "x", 0.0, 1.0, "host", {"fn": fn})
    rec.pack()
    assert rec.spans[0].args["fn"] is fn


def test_packed_chunks_are_not_tracked_by_the_garbage_collector():
    """After a collection has seen them, packed spans (pipe tuples included) cost the
    collector nothing: no tracked object remains per span."""
    rec = TraceRecorder()
    shared = {"kernel": "Add"}
    for i in range(2000):
        rec.span(HOST, "aclnnAdd", float(i), 1.0, "host", shared, i, True)
        rec.span(("device 0", "stream 1"), "Add", float(i), 2.0, "task", {"block_dim": 4, "shapes": [[2, 3]]}, i)
        rec.pipe_span(PIPE, "MTE2", float(i), 0.5, i, 64)
    rec.pack()
    gc.collect()
    gc.collect()
    packed = rec._packed
    assert len(packed) == 6000
    held = packed.objs + packed._names + packed.args._o    # every object the columns reference
    assert not any(gc.is_tracked(e) for e in held)
    assert len(rec.spans) == 6000


def test_pipeline_appends_through_a_cached_append_survive_a_pack():
    """The tile pipeline appends through ``rec.pipe_sink()`` cached across SimPy
    yields: a pack (or a read of ``spans``) in between must not detach it."""
    rec = TraceRecorder()
    append = rec.pipe_sink()
    append((PIPE, "MTE2", 0.0, 1.0, 0, 32))
    rec.span(HOST, "h", 0.5, 1.0, "host")
    rec.pack()
    append((PIPE, "MTE2", 1.0, 1.0, 1, 32))
    assert [(s.name, s.start_ns) for s in rec.spans] == [("MTE2", 0.0), ("h", 0.5), ("MTE2", 1.0)]
    append((PIPE, "MTE2", 2.0, 1.0, 2, 32))
    assert len(rec) == 4 and rec.spans[-1].start_ns == 2.0


def test_length_counts_packed_and_unpacked_entries():
    """``len(rec)`` counts spans wherever they are stored: Span objects, packed chunks,
    flat entries and pipe tuples recorded since the last pack."""
    rec = TraceRecorder()
    for i in range(3):
        rec.span(HOST, "h", float(i), 1.0, "host")
    rec.pipe_span(PIPE, "MTE2", 0.0, 1.0, 0, 32)
    assert len(rec) == 4
    rec.pack()
    assert len(rec) == 4
    rec.span(HOST, "h", 5.0, 1.0, "host")
    assert len(rec) == 5
    assert len(rec.spans) == 5 and len(rec) == 5
    rec.pack()
    rec.clear()
    assert len(rec) == 0


def test_clear_disabled_and_initial_spans():
    first = Span(HOST, "given", 0.0, 1.0, "host")
    rec = TraceRecorder(spans=[first])
    rec.span(HOST, "more", 1.0, 1.0, "host")
    rec.pack()
    assert [s.name for s in rec.spans] == ["given", "more"] and len(rec) == 2
    rec.clear()
    assert rec.spans == [] and len(rec) == 0
    off = TraceRecorder(enabled=False)
    off.span(HOST, "x", 0.0, 1.0, "host")
    off.pack()
    assert off.spans == [] and "spans=0" in repr(off)
