"""A small ResNet-style model (stem conv + BN + ReLU, max pool, two residual blocks,
global average pool, Gemm) captured once and replayed a hundred times with new
inputs on the ``tiny`` chip: every replay matches onnx's ReferenceEvaluator (an
independent reference; frontend.reference corrects its opset-13 BatchNorm), and each replay costs the host one launch
(aclmdlRIExecuteAsync), whatever the number of kernels. Also ``npu-sim run`` with
capture on explicitly, and the trace of a replay."""
from __future__ import annotations

import json

import numpy as np
import pytest
import onnx
from onnx import helper, numpy_helper

from acl_runtime import acl
from acl_runtime.host_clock import HOST_COST_NS
from acl_runtime.runtime import runtime
from frontend.cli import main
from frontend.onnx_import import load_onnx
from frontend.program import download, upload
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

from .test_memory import clean_acl  # noqa: F401  (fixture)

C, HW, CLASSES = 8, 8, 10


def _resnet(tmp_path):
    rng = np.random.default_rng(7)
    T = onnx.TensorProto.FLOAT
    inits, nodes = [], []

    def w(name, *shape, scale=0.3):
        inits.append(numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name))
        return name

    def conv(x, y, cin, cout, relu=True):
        nodes.append(helper.make_node("Conv", [x, w(y + "_w", cout, cin, 3, 3), w(y + "_b", cout)], [y + "_c"],
                                      pads=[1, 1, 1, 1], name=y))
        if not relu:
            return y + "_c"
        nodes.append(helper.make_node("Relu", [y + "_c"], [y]))
        return y

    stem = conv("x", "stem", 3, C, relu=False)
    bn = [w("bn_s", C, scale=0.1), w("bn_b", C, scale=0.1), w("bn_m", C, scale=0.1)]
    inits.append(numpy_helper.from_array((1 + rng.random(C)).astype(np.float32), "bn_v"))
    nodes += [helper.make_node("BatchNormalization", [stem, *bn, "bn_v"], ["bn"]),
              helper.make_node("Relu", ["bn"], ["r0"]),
              helper.make_node("MaxPool", ["r0"], ["p0"], kernel_shape=[2, 2], strides=[2, 2])]
    x = "p0"
    for k in range(2):
        a = conv(x, f"b{k}a", C, C)
        b = conv(a, f"b{k}b", C, C, relu=False)
        nodes += [helper.make_node("Add", [b, x], [f"b{k}s"]), helper.make_node("Relu", [f"b{k}s"], [f"b{k}"])]
        x = f"b{k}"
    nodes += [helper.make_node("GlobalAveragePool", [x], ["gap"]), helper.make_node("Flatten", ["gap"], ["f"]),
              helper.make_node("Gemm", ["f", w("fc_w", CLASSES, C), w("fc_b", CLASSES)], ["y"], transB=1)]
    g = helper.make_graph(nodes, "tiny_resnet", [helper.make_tensor_value_info("x", T, [1, 3, 2 * HW, 2 * HW])],
                          [helper.make_tensor_value_info("y", T, None)], inits)
    p = tmp_path / "tiny_resnet.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), p)
    return p


def test_hundred_replays_with_new_inputs_match_the_reference(tmp_path, clean_acl):  # noqa: F811
    path = _resnet(tmp_path)
    ref = reference_evaluator(onnx.load(path))   # onnx's evaluator, its inference BatchNorm corrected
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        r = ModelRunner(load_onnx(path), mode="graph", memory="planned")
        r.prepare()
        prog = r.program
        kernels = sum(c.kernel_count for c in prog.calls)
        assert kernels >= 8
        tasks = prog.capture()
        assert tasks == kernels
        clock = runtime().context.clock
        xin, yout = r.values["x"], r.values["y"]
        rng = np.random.default_rng(11)
        for i in range(100):
            x = rng.standard_normal((1, 3, 2 * HW, 2 * HW)).astype(np.float32)
            upload(xin.ptr, x)
            t0 = clock.now_ns
            assert acl.mdl.ri_execute_async(prog.model_ri, prog.stream) == 0
            assert clock.now_ns - t0 == pytest.approx(HOST_COST_NS["aclnn_launch"])   # one launch for all kernels
            assert acl.rt.synchronize_stream(prog.stream) == 0
            got = download(yout.ptr, yout.shape, yout.dtype)
            np.testing.assert_allclose(got, ref.run(None, {"x": x})[0], rtol=1e-4, atol=1e-5, err_msg=f"replay {i}")
        # the runner's own path replays too (inputs copied in outside the capture)
        x = rng.standard_normal((1, 3, 2 * HW, 2 * HW)).astype(np.float32)
        res = r.run({"x": x})
        np.testing.assert_allclose(res.outputs["y"], ref.run(None, {"x": x})[0], rtol=1e-4, atol=1e-5)
        host = [s for s in runtime().profiler.host.spans if s.name == "aclmdlRIExecuteAsync"]
        assert len(host) == 101 and all(s.dur_ns == HOST_COST_NS["aclnn_launch"] for s in host)
    finally:
        acl.finalize()


def test_cli_run_with_capture_matches_and_traces_the_replay(tmp_path, capsys, clean_acl):  # noqa: F811
    path = _resnet(tmp_path)
    trace = tmp_path / "t.json"
    assert main(["run", str(path), "--chip", "tiny", "--capture", "--no-progress", "--trace", str(trace)]) == 0
    out = capsys.readouterr().out
    assert "PASS" in out and "replayed: captured once" in out
    doc = json.loads(trace.read_text())
    ev = doc["traceEvents"]
    host = [e for e in ev if e.get("name") == "aclmdlRIExecuteAsync" and e.get("ph") == "X"]
    assert len(host) == 1
    tids = {(e["pid"], e["tid"]): e["args"]["name"] for e in ev if e.get("ph") == "M" and e["name"] == "thread_name"}
    kernels = [e for e in ev if e.get("ph") == "X" and e.get("cat") == "task"
               and tids.get((e["pid"], e["tid"]), "").startswith("stream")
               and not e["name"].startswith(("EVENT", "memcpy"))]
    assert kernels and all(k["ts"] >= host[0]["ts"] for k in kernels)
    arena = [e for e in ev if e.get("ph") == "C" and e["name"] == "modelRI arena"]
    assert len(arena) == len(kernels) + 1 and max(e["args"]["in use (bytes)"] for e in arena) > 0
    assert '"replayed": true' in json.dumps(doc).replace('"replayed":true', '"replayed": true')


def test_cli_no_capture_and_timing_only(tmp_path, capsys, clean_acl):  # noqa: F811
    path = _resnet(tmp_path)
    assert main(["run", str(path), "--chip", "tiny", "--no-capture", "--no-progress", "--trace", ""]) == 0
    assert "not replayed" in capsys.readouterr().out
    assert main(["run", str(path), "--chip", "tiny", "--timing-only", "--no-progress", "--trace", ""]) == 0
    assert "replayed: captured once" in capsys.readouterr().out


def test_poison_under_the_plan_with_capture(tmp_path, clean_acl):  # noqa: F811
    """Poison copies are captured with the kernels: every replay still matches."""
    path = _resnet(tmp_path)
    ref = reference_evaluator(onnx.load(path))
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        r = ModelRunner(load_onnx(path), mode="graph", memory="planned", poison=True)
        r.prepare()
        assert r.program.capture() > sum(c.kernel_count for c in r.calls)   # kernels + poison copies
        rng = np.random.default_rng(5)
        for _ in range(3):
            x = rng.standard_normal((1, 3, 2 * HW, 2 * HW)).astype(np.float32)
            np.testing.assert_allclose(r.run({"x": x}).outputs["y"], ref.run(None, {"x": x})[0], rtol=1e-4,
                                       atol=1e-5)
    finally:
        acl.finalize()


def test_cli_falls_back_to_eager_when_the_capture_fails(tmp_path, capsys, clean_acl, monkeypatch):  # noqa: F811
    """A call that cannot be captured (here: a blocking copy inside the capture, 107030)
    leaves nothing run: the run launches eagerly and says why."""
    from frontend.program import PreparedProgram
    launch_all = PreparedProgram._launch_all

    def unsafe(self):
        host = np.zeros(4, np.float32)
        launch_all(self)
        ptr, _ = acl.rt.malloc(16)
        upload(ptr, host)   # aclrtMemcpy: not allowed while capturing in GLOBAL mode
    monkeypatch.setattr(PreparedProgram, "_launch_all", unsafe)
    path = _resnet(tmp_path)
    assert main(["run", str(path), "--chip", "tiny", "--no-progress", "--trace", "", "--no-check"]) == 0
    out = capsys.readouterr().out
    assert "not replayed" in out and "the capture failed" in out and "107030" in out
