"""The profiler owns the host track: the device's recorder holds device tracks only,
the profiler interleaves both in recording order, and its views match the runtime's."""
from __future__ import annotations

import json

import numpy as np

import opsnn
from acl_runtime import acl, profiler
from acl_runtime.runtime import HOST_TRACK, runtime
from acl_runtime.profiler import L2_COUNTER_SERIES
from traces import to_chrome_trace, validate_trace

from .conftest import vector_launch


def _relu_run(npu, n: int = 3):
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    _, tx = npu.to_device(x)
    _, ty = npu.empty((64,), np.float32)
    for _ in range(n):
        ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(tx, ty)
        assert ret == 0 and opsnn.aclnnRelu(0, ws, ex, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0


def test_device_recorder_has_device_tracks_only(npu):
    _relu_run(npu)
    dev = runtime().device
    assert dev.recorder.spans and all(s.track[0] == dev.track_pid for s in dev.recorder.spans)
    # the device's only counters: one L2 hit-rate sample per kernel on its own track (%)
    l2 = dev.recorder.counters
    assert len(l2) == len(dev.kernel_records) > 0
    assert all((c.track, c.name) == (dev.track_pid, L2_COUNTER_SERIES) and 0 <= c.value <= 100 for c in l2)
    assert l2[0].ts_ns == dev.kernel_records[0]["start_ns"] + dev.kernel_records[0]["dur_ns"]
    assert l2[0].value == 100.0 * dev.kernel_records[0]["l2_hit_rate"]
    host = profiler.host_spans()
    assert host and all(s.track == HOST_TRACK for s in host)
    assert {"malloc", "aclnnReluGetWorkspaceSize", "aclnnRelu", "aclrtSynchronizeStream"} <= {s.name for s in host}
    assert len(runtime().profiler.host.counters) == 2   # one device-memory sample per malloc


def test_trace_records_interleave_in_recording_order(npu):
    """Host spans recorded before a synchronize come before the device spans of that run,
    host spans after it (the "blocked" wait, later calls) after them -- the order one
    shared recording would have had."""
    _relu_run(npu, 2)
    runtime().launch_kernel(0, vector_launch(10))
    assert acl.rt.synchronize_stream(0) == 0
    spans, counters, meta = runtime().profiler.trace_records()
    dev_spans = runtime().device.recorder.spans
    host = profiler.host_spans()
    assert sorted(map(id, spans)) == sorted(map(id, host + dev_spans))
    pos = {id(s): i for i, s in enumerate(spans)}
    sync = [pos[id(s)] for s in host if s.name == "aclrtSynchronizeStream"]
    blocked = [pos[id(s)] for s in host if s.name.startswith("blocked") and pos[id(s)] > sync[0]]
    (synthetic_launch,) = [pos[id(s)] for s in host if s.name == "aclnnSynthetic"]
    relu = [pos[id(s)] for s in dev_spans if s.cat == "task" and s.name != "Synthetic"]
    (synthetic,) = [pos[id(s)] for s in dev_spans if s.cat == "task" and s.name == "Synthetic"]
    assert len(relu) == 2 and sync[0] < min(relu) and max(relu) < blocked[0] < synthetic_launch
    assert synthetic_launch < sync[1] < synthetic < blocked[-1]
    assert meta["chip"] == "tiny" and meta["devices"]["device 0"]["aic_count"] == runtime().chip.aic_count
    mem = [c for c in counters if c.track == "device memory"]
    assert len(mem) == 2
    assert len([c for c in counters if c.name == L2_COUNTER_SERIES]) == 3 == len(runtime().device.kernel_records)
    assert len(counters) == 5


def test_views_and_trace_writing(npu, tmp_path):
    _relu_run(npu, 2)
    assert profiler.kernels_completed() == runtime().kernels_completed() == 2
    assert profiler.kernel_records(1) == runtime().kernel_records(1) and len(profiler.kernel_records()) == 2
    assert profiler.peak_memory_bytes() == runtime().peak_memory_bytes() > 0
    data = profiler.trace_data({"run": "relu"})
    assert data.metadata["run"] == "relu" and len(data.spans) == len(profiler.host_spans()) + len(
        runtime().device.recorder.spans)
    path = profiler.write_trace(tmp_path / "t.json", {"run": "relu"})
    written = json.loads(path.read_text())
    assert written == json.loads(json.dumps(to_chrome_trace(data)))
    assert validate_trace(written)["spans"] == len(data.spans)


def test_clear_and_disable(npu):
    _relu_run(npu, 1)
    profiler.clear()
    assert not profiler.host_spans() and not runtime().device.recorder.spans
    profiler.set_enabled(False)
    _relu_run(npu, 1)
    assert not profiler.host_spans() and not runtime().device.recorder.spans
    profiler.set_enabled(True)
    _relu_run(npu, 1)
    assert profiler.host_spans() and runtime().device.recorder.spans


def test_finalize_forgets_the_host_track(npu):
    _relu_run(npu, 1)
    acl.finalize()
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    assert profiler.host_spans() == [] and runtime().profiler.flow == 0
