"""Traces made by the real simulator, once per module.

``acl_run``: a two-stream run through the pyACL-style binding on ``tiny``: H2D
copies, a Matmul (AIC) on the default stream, EVENT_RECORD there and
STREAM_WAIT_EVENT + Add (AIV) + an async D2H on a second stream, then
synchronize_device. ``device_run``: hand-built KernelSpecs submitted straight to an
``npu_sim.Device``, with more blocks than cores on two streams, so blocks queue
for cores and several kernels share each core's pipe tracks.
"""
from __future__ import annotations

import json
from types import SimpleNamespace

import numpy as np
import pytest

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from npu_sim import (BlockProgram, CoreType, Device, KernelLaunch, KernelSpec, Pipe, Stage, TileSpec,
                     get_chip)
from tests.conftest import DeviceHelper, _fresh
from traces import to_chrome_trace, write_chrome_trace

M, K, N = 64, 48, 80


@pytest.fixture(scope="module")
def acl_run(tmp_path_factory):
    _fresh("tiny")
    try:
        h = DeviceHelper()
        rng = np.random.default_rng(7)
        a = rng.standard_normal((M, K)).astype(np.float16)
        b = rng.standard_normal((K, N)).astype(np.float16)
        _, ta = h.to_device(a)
        _, tb = h.to_device(b)
        _, tc = h.empty((M, N), np.float16)
        ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0)
        assert ret == 0, opsnn.aclGetRecentErrMsg()
        assert opsnn.aclnnMatmul(h.malloc(ws) if ws else 0, ws, ex, 0) == 0
        ev, ret = acl.rt.create_event()
        assert ret == 0
        assert acl.rt.record_event(ev, 0) == 0
        s2, ret = acl.rt.create_stream()
        assert ret == 0
        x = np.ones(4096, np.float32)
        _, tx = h.to_device(x)
        _, ty = h.to_device(x)
        pz, tz = h.empty(4096, np.float32)
        assert acl.rt.stream_wait_event(s2, ev) == 0
        ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(tx, ty, 1.0, tz)
        assert ret == 0, opsnn.aclGetRecentErrMsg()
        assert opsnn.aclnnAdd(h.malloc(ws) if ws else 0, ws, ex, s2) == 0
        out = np.empty(4096, np.float32)
        assert acl.rt.memcpy_async(acl.util.numpy_to_ptr(out), out.nbytes, pz, out.nbytes,
                                   acl.ACL_MEMCPY_DEVICE_TO_HOST, s2) == 0
        assert acl.rt.synchronize_device() == 0
        assert np.all(out == 2.0)
        dev = runtime().device
        rec = runtime().trace_data()   # host + device tracks (the profiler owns the host track)
        trace = to_chrome_trace(rec, metadata={"test": "acl_run"})
        path = tmp_path_factory.mktemp("traces") / "acl_run.json"
        write_chrome_trace(rec, path, metadata={"test": "acl_run"})
        yield SimpleNamespace(dev=dev, rec=rec, trace=trace, path=path,
                              loaded=json.loads(path.read_text()))
    finally:
        acl.finalize()


def _spec(name: str, core_type: CoreType, blocks: int, tiles: int) -> KernelSpec:
    if core_type is CoreType.AIC:
        stages = (Stage(Pipe.MTE2, nbytes=4096), Stage(Pipe.MTE1, nbytes=4096), Stage(Pipe.CUBE, macs=16 ** 3 * 8),
                  Stage(Pipe.FIXPIPE, nbytes=2048))
    else:
        stages = (Stage(Pipe.MTE2, nbytes=2048), Stage(Pipe.VECTOR, vector_bytes=4096), Stage(Pipe.MTE3, nbytes=2048))
    prog = BlockProgram((TileSpec(stages, tiles),))
    return KernelSpec(name, core_type, (prog,) * blocks, 2, {}, tiling_key=3,
                      args={"flops": 1000 * blocks, "bytes": 8192 * blocks, "dtype": np.dtype("float16"),
                            "shape": np.array([blocks, tiles]), "scale": np.float32(0.5)})


@pytest.fixture(scope="module")
def device_run():
    dev = Device(get_chip("tiny"), backed=False)
    s1, s2 = dev.create_stream(), dev.create_stream()
    dev.submit_kernel(s1, KernelLaunch(_spec("CubeA", CoreType.AIC, 3, 4), None), 0.0, flow_id=None)
    dev.submit_kernel(s2, KernelLaunch(_spec("CubeB", CoreType.AIC, 2, 3), None), 500.0)
    dev.submit_kernel(s1, KernelLaunch(_spec("VecC", CoreType.AIV, 6, 5), None), 100.0)
    dev.submit_kernel(s2, KernelLaunch(_spec("VecC", CoreType.AIV, 4, 2), None), 20000.0)
    dev.run_until(None)
    return SimpleNamespace(dev=dev, rec=dev.recorder, trace=to_chrome_trace(dev))


def _mlp_model(path):
    """A tiny MatMul + Add + Relu model (8x32 @ 32x16), small enough for the tiny chip."""
    import onnx
    from onnx import TensorProto, helper
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [8, 32])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = helper.make_tensor("w", TensorProto.FLOAT, [32, 16],
                           np.random.default_rng(0).random((32, 16)).astype(np.float32).ravel())
    b = helper.make_tensor("b", TensorProto.FLOAT, [16], np.ones(16, np.float32))
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"]), helper.make_node("Add", ["h", "b"], ["h2"]),
             helper.make_node("Relu", ["h2"], ["y"])]
    onnx.save(helper.make_model(helper.make_graph(nodes, "g", [x], [y], [w, b]),
                                opset_imports=[helper.make_opsetid("", 13)]), path)
    return path


@pytest.fixture(scope="session")
def sim_runs(tmp_path_factory):
    """Traces written by ``npu-sim run`` of the tiny MLP: ``tiny`` on the tiny chip and
    ``other`` on the 910B-class default chip (for diff), both ``--mode eager``, and
    ``graph``: the tiny chip in ``--mode graph`` (the graph compiler's fusions)."""
    from frontend.cli import main as npu_sim
    from npu_sim import DEFAULT_CHIP
    d = tmp_path_factory.mktemp("sim_runs")
    model = _mlp_model(d / "mlp.onnx")
    out = {}
    for name, chip, mode in (("tiny", "tiny", "eager"), ("other", DEFAULT_CHIP, "eager"), ("graph", "tiny", "graph")):
        path = d / f"{name}.json"
        assert npu_sim(["run", str(model), "--chip", chip, "--trace", str(path), "--no-progress",
                        "--no-check", "--mode", mode]) == 0
        out[name] = path
    return SimpleNamespace(**out)


@pytest.fixture(scope="session")
def timing_only_trace(tmp_path_factory):
    """The two-stream op sequence of tests/test_timing_only.py (copies, Matmul,
    Convolution, Add, Relu, Softmax, an event between streams) run timing-only."""
    from opsnn.base.cache import clear_executor_cache
    from tests.test_timing_only import _sequence
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    assert acl.init(chip="tiny", timing_only=True) == 0
    assert acl.rt.set_device(0) == 0
    clear_executor_cache()
    try:
        _sequence(DeviceHelper(), np.random.default_rng(5))
        path = tmp_path_factory.mktemp("timing_only") / "t.json"
        write_chrome_trace(runtime().trace_data(), path, metadata={"test": "timing_only"})
        return path
    finally:
        acl.finalize()
