"""The fast trace paths give what the reference paths give.

* ``acl_runtime.trace_writer.write_trace_fast`` (``f.write(json.dumps(...))`` and a
  vectorised overlap check) writes the bytes ``traces.chrome_trace.write_chrome_trace``
  writes (``json.dump`` and the per-event check), plain and gzip;
* its overlap test agrees with ``check_no_overlap`` on random tracks;
* the trace levels "kernels" and "off" change no simulated time and keep no pipe
  spans (resp. nothing).
"""
from __future__ import annotations

import gzip

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime.runtime import runtime
from acl_runtime.trace_writer import overlapping, write_trace_fast
from opsnn.base.cache import clear_executor_cache
from tests.conftest import DeviceHelper
from tests.test_timing_only import _sequence
from traces.chrome_trace import OVERLAP_TOLERANCE_US, check_no_overlap, write_chrome_trace


def _run(level: str = "pipes"):
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    assert acl.init(chip="tiny") == 0
    assert acl.rt.set_device(0) == 0
    rt.profiler.set_level(level)
    clear_executor_cache()
    _sequence(DeviceHelper(), np.random.default_rng(5))
    return rt


def test_fast_writer_is_byte_identical(tmp_path):
    rt = _run()
    try:
        for name in ("t.json", "t.json.gz"):
            a = write_chrome_trace(rt.profiler, tmp_path / f"ref_{name}", metadata={"model": "x"})
            b = write_trace_fast(rt.profiler, tmp_path / f"fast_{name}", metadata={"model": "x"})
            read = gzip.open if name.endswith(".gz") else open
            with read(a, "rb") as fa, read(b, "rb") as fb:
                ref, fast = fa.read(), fb.read()
            assert ref == fast and len(ref) > 1000
    finally:
        acl.finalize()


def _events(rng, tracks: int, n: int) -> list[dict]:
    ts = np.round(rng.uniform(0, 50, n), 1)
    dur = np.round(rng.choice([0.0, 0.5, 1.0, 3.0], n), 1)
    return [{"ph": "X", "pid": 1, "tid": int(t), "name": f"s{i}", "ts": float(a), "dur": float(d)}
            for i, (t, a, d) in enumerate(zip(rng.integers(0, tracks, n), ts, dur))]


@pytest.mark.parametrize("seed", range(40))
def test_vectorised_overlap_check_agrees_with_reference(seed):
    rng = np.random.default_rng(seed)
    events = _events(rng, int(rng.integers(1, 4)), int(rng.integers(0, 12)))
    try:
        check_no_overlap({"traceEvents": events})
        ref = False
    except ValueError:
        ref = True
    assert overlapping(events, OVERLAP_TOLERANCE_US) == ref


def test_fast_writer_raises_the_reference_error(tmp_path):
    rt = _run()
    try:
        dev = rt.device
        dev.recorder.span(("device 0", "stream 99"), "a", 0.0, 10.0, "task")
        dev.recorder.span(("device 0", "stream 99"), "b", 5.0, 10.0, "task")
        with pytest.raises(ValueError, match="spans overlap on track"):
            write_trace_fast(rt.profiler, tmp_path / "t.json")
        assert not (tmp_path / "t.json").exists()
    finally:
        acl.finalize()


def _times(rt):
    recs = [(r["name"], r["start_ns"], r["dur_ns"]) for r in rt.device.kernel_records]
    return recs, rt.clock.now_ns


def test_trace_levels_change_no_time():
    rt = _run("pipes")
    full = _times(rt)
    cats_full = {s.cat for s in rt.profiler.trace_records()[0]}
    acl.finalize()
    rt = _run("kernels")
    try:
        assert _times(rt) == full
        spans = rt.profiler.trace_records()[0]
        assert "pipe" in cats_full and spans and "pipe" not in {s.cat for s in spans}
    finally:
        acl.finalize()
    rt = _run("off")
    try:
        assert _times(rt) == full
        assert rt.profiler.trace_records()[0] == []
    finally:
        acl.finalize()
    with pytest.raises(ValueError):
        rt.profiler.set_level("tiles")
