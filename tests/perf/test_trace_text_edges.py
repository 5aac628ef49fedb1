"""The direct JSON build of ``acl_runtime.trace_writer`` on unusual spans: the bytes
of ``traces.chrome_trace.write_chrome_trace`` (numpy-scalar, non-finite, nested,
shared and empty args; int times; flows; counters), and the reference errors."""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime.trace_writer import write_trace_fast
from tests.perf.test_trace_fast_paths import _run
from acl_runtime import acl
from traces.chrome_trace import write_chrome_trace


def _odd_spans(rec):
    shared = {"k": np.int64(3), "v": np.float32(0.5)}
    track = ("device 0", "stream 77")
    rec.span(track, "a", 1.0e9, 5.0, "task", shared)
    rec.span(track, "b", 1.0e9 + 5.0, 1.0, "task", shared)
    rec.span(track, "c", 1.0e9 + 7, 2, "task", {"x": float("nan"), "y": [1, (2, 3)], "z": None})
    rec.span(track, "d", 1.0e9 + 10.0, 0.0, "task", {})
    rec.span(track, np.str_("e"), 1.0e9 + 11.0, 1.0, "task", {"tile": True, "bytes": 2})
    rec.span(track, "f", 1.0e9 + 12.0, 1.0, "task", {"bytes": 2, "tile": 1})
    rec.span(track, "g", 1.0e9 + 13.0, 1.0, "task", {"tile": 4})
    rec.span(("host", "thread 0"), "launch", 1.0e9 + 14.0, 1.0, "host", flow_id=10 ** 6, flow_out=True)
    rec.span(track, "h", 1.0e9 + 20.0, 1.0, "task", flow_id=10 ** 6)
    rec.counter("device 0", "odd", 1.0e9, np.float64(np.inf))


def test_odd_spans_give_the_reference_bytes(tmp_path, monkeypatch):
    rt = _run()
    try:
        _odd_spans(rt.device.recorder)
        a = write_chrome_trace(rt.profiler, tmp_path / "ref.json", metadata={"m": np.int32(1)})
        import traces.chrome_trace as ct   # the fast path must not fall back to the reference build
        monkeypatch.setattr(ct, "to_chrome_trace", lambda *a, **k: pytest.fail("fell back"))
        b = write_trace_fast(rt.profiler, tmp_path / "fast.json", metadata={"m": np.int32(1)})
        assert a.read_bytes() == b.read_bytes()
    finally:
        acl.finalize()


@pytest.mark.parametrize("start,dur", [(float("nan"), 1.0), (0.0, -1.0), (float("inf"), 0.0)])
def test_bad_times_raise_the_reference_error(tmp_path, start, dur):
    rt = _run()
    try:
        rt.device.recorder.span(("device 0", "stream 5"), "bad", start, dur, "task")
        with pytest.raises(ValueError) as ref:
            write_chrome_trace(rt.profiler, tmp_path / "ref.json")
        with pytest.raises(ValueError) as fast:
            write_trace_fast(rt.profiler, tmp_path / "fast.json")
        assert str(ref.value) == str(fast.value)
    finally:
        acl.finalize()
