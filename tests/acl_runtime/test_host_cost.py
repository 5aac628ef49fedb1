"""The host cost model (acl_runtime/host_clock.py) as the trace shows it: phase 1 and
phase 2 advance the host clock by the documented amounts, launch spans carry flow
arrows to the device tasks they create, launches reach the simulator in order, and
a host slower than the device leaves host-bound idle gaps that caching shrinks."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
import traces
from acl_runtime import acl
from acl_runtime.host_clock import HOST_COST_NS, TILING_CANDIDATE_NS, TILING_NS, prepare_cost_ns
from acl_runtime import profiler
from acl_runtime.runtime import HOST_TRACK, runtime
from opsnn.base.executor import aclOpExecutor
from opsnn.base.op import prepare
from opsnn.base.tiling_base import TilingResult


@pytest.fixture(autouse=True)
def cache_on():
    prev = opsnn.set_executor_cache(enabled=True)
    opsnn.clear_executor_cache()
    yield
    opsnn.set_executor_cache(**prev)
    opsnn.clear_executor_cache()


def _host_spans(name=None):
    return [s for s in profiler.host_spans() if s.track == HOST_TRACK and (name is None or s.name == name)]


def _relu_tensors(npu, n=64):
    x = np.linspace(-1, 1, n, dtype=np.float32)
    px, tx = npu.to_device(x)
    py, ty = npu.empty((n,), np.float32)
    return x, tx, py, ty


def test_cost_formula():
    assert prepare_cost_ns(["AIV"]) == HOST_COST_NS["aclnn_prepare"] + TILING_NS["AIV"]
    assert prepare_cost_ns(["AIC", "AIV"], tiling_candidates=3) == (HOST_COST_NS["aclnn_prepare"] + TILING_NS["AIC"]
                                                                   + TILING_NS["AIV"] + 3 * TILING_CANDIDATE_NS)
    assert HOST_COST_NS["aclnn_cache_hit"] < HOST_COST_NS["aclnn_launch"] < HOST_COST_NS["aclnn_prepare"]


def test_phase1_miss_hit_and_phase2_charge_the_host(npu):
    """Miss: prepare_cost_ns of its kernels; hit: aclnn_cache_hit; phase 2:
    aclnn_launch per kernel. Each is a span on the host track."""
    clock = runtime().clock
    _, tx, _, ty = _relu_tensors(npu)
    t0 = clock.now_ns
    ws, ex, _ = opsnn.aclnnReluGetWorkspaceSize(tx, ty)
    miss = prepare_cost_ns([k.spec.core_type.value for k in ex.kernels])
    assert clock.now_ns - t0 == pytest.approx(miss)
    t1 = clock.now_ns
    assert opsnn.aclnnRelu(0, ws, ex, 0) == 0
    assert clock.now_ns - t1 == pytest.approx(HOST_COST_NS["aclnn_launch"] * len(ex.kernels))
    t2 = clock.now_ns
    ws, ex, _ = opsnn.aclnnReluGetWorkspaceSize(tx, ty)
    assert clock.now_ns - t2 == pytest.approx(HOST_COST_NS["aclnn_cache_hit"])
    prep = _host_spans("aclnnReluGetWorkspaceSize")
    assert [s.args["cache"] for s in prep] == ["miss", "hit"]
    assert prep[0].dur_ns == pytest.approx(miss) and prep[0].flow_id is None
    launches = _host_spans("aclnnRelu")
    assert len(launches) == 1 and launches[0].flow_out and launches[0].flow_id is not None


def test_cube_prepare_costs_more_than_vector(npu):
    a = npu.empty((16, 32), np.float32)[1]
    b = npu.empty((32, 16), np.float32)[1]
    c = npu.empty((16, 16), np.float32)[1]
    clock = runtime().clock
    t0 = clock.now_ns
    _, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(a, b, c, 0)
    assert ret == 0 and any(k.spec.core_type.value == "AIC" for k in ex.kernels)
    assert clock.now_ns - t0 >= HOST_COST_NS["aclnn_prepare"] + TILING_NS["AIC"]


def test_reported_tiling_candidates_are_charged(npu):
    out = npu.empty((8,), np.float32)[1]
    clock = runtime().clock
    t0 = clock.now_ns
    # six strategies asked, the last one tiled: five candidates charged on top
    res = TilingResult("s5", 0, 1, 0, None, tuple(f"s{i}" for i in range(6)))
    prepare("Probe", lambda chip: aclOpExecutor("Probe", [], [], [out], tiling=res))
    assert clock.now_ns - t0 == pytest.approx(prepare_cost_ns([], 5))


def test_flow_arrows_link_launch_to_device_task(npu):
    x, tx, py, ty = _relu_tensors(npu)
    npu.run(opsnn.aclnnReluGetWorkspaceSize(tx, ty), opsnn.aclnnRelu)
    (launch,) = _host_spans("aclnnRelu")
    dev = runtime().device
    tasks = [s for s in dev.recorder.spans if s.flow_id == launch.flow_id and s.track != HOST_TRACK]
    assert len(tasks) == 1 and tasks[0].track[1].startswith("stream")
    assert tasks[0].start_ns >= launch.start_ns + launch.dur_ns     # not before the host enqueued it
    np.testing.assert_array_equal(npu.to_host(py, x.shape, np.float32), np.maximum(x, 0))


def test_launches_are_deferred_but_ordered(npu):
    """Phase 2 queues the kernel; the simulator receives it only when the device must
    move (here: the event record after it), in submission order."""
    x, tx, py, ty = _relu_tensors(npu)
    s = runtime().default_stream
    before = s.task_count
    ws, ex, _ = opsnn.aclnnReluGetWorkspaceSize(tx, ty)
    assert opsnn.aclnnRelu(0, ws, ex, 0) == 0
    assert s.task_count == before and runtime().pending_launches() == 1
    ev, _ = acl.rt.create_event()
    assert acl.rt.record_event(ev, 0) == 0
    assert s.task_count == before + 2 and not runtime().pending_launches()
    assert acl.rt.synchronize_event(ev) == 0
    (rec,) = [r for r in runtime().device.kernel_records if r["name"] == ex.kernels[0].spec.name]
    dev = runtime().device
    (record,) = [sp for sp in dev.recorder.spans if sp.name == "EVENT_RECORD"]
    assert rec["start_ns"] + rec["dur_ns"] <= record.start_ns


def _chain(npu, n_ops: int, enabled: bool):
    """``n_ops`` dependent Relus on one stream, each prepared right before its run.
    Returns (device busy span end, host-bound idle ns, idle ns) of the stream."""
    opsnn.set_executor_cache(enabled=enabled)
    x, tx, py, ty = _relu_tensors(npu)
    profiler.clear()
    for i in range(n_ops):
        src, dst = (tx, ty) if i % 2 == 0 else (ty, tx)
        ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(src, dst)
        assert ret == 0 and opsnn.aclnnRelu(0, ws, ex, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    (cp,) = traces.critical_path(profiler.trace_data())
    gaps = traces.idle_gaps(profiler.trace_data())
    assert gaps and all(g["host_bound"] for g in gaps)
    return cp["end_ns"] - cp["start_ns"], cp["host_bound_idle_ns"], cp["idle_ns"]


def test_host_bound_gaps_shrink_with_the_cache(npu):
    """Small kernels re-prepared every call leave the device waiting on the host
    (every gap host-bound); cached executors cut that wait and the span."""
    span_off, host_idle_off, _ = _chain(npu, 12, enabled=False)
    span_on, host_idle_on, _ = _chain(npu, 12, enabled=True)
    assert host_idle_off > 0 and host_idle_on < host_idle_off
    assert span_on < span_off
    per_op_off = HOST_COST_NS["aclnn_launch"] + prepare_cost_ns(["AIV"])
    per_op_on = HOST_COST_NS["aclnn_launch"] + HOST_COST_NS["aclnn_cache_hit"]
    # host-bound: the device span is set by the host's rate, one op per host period
    assert span_off == pytest.approx(11 * per_op_off, rel=0.2)
    assert span_on < span_off * per_op_on / per_op_off * 1.5
