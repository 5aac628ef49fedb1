"""Graph mode end to end: outputs match the reference in both modes (light ResNet-50
with random weights, logits included; small graphs exercising every fused kernel),
graph-mode ResNet-50 has no BatchNorm or standalone Relu kernel left, and the trace
names the members of each fused kernel."""
from __future__ import annotations

import json

import numpy as np
import onnx
import pytest
from onnx import helper

from frontend import profiling
from frontend.cli import light_model_path
from frontend.model_zoo import minilm_model_path
from frontend.onnx_import import load_onnx
from frontend.reference import reference_evaluator
from frontend.reweight import reweight_model
from frontend.runner import ModelRunner

from .graphs import model


def _rel(got, ref):
    ref = np.asarray(ref, np.float64)
    return float(np.abs(np.asarray(got, np.float64) - ref).max() / max(np.abs(ref).max(), 1e-30))


@pytest.fixture(scope="module")
def resnet():
    m = reweight_model(onnx.load(str(light_model_path("light_resnet50.onnx"))), seed=1)
    sm = next(n for n in m.graph.node if n.op_type == "Softmax")
    m.graph.output.append(helper.make_tensor_value_info(sm.input[0], onnx.TensorProto.FLOAT, None))
    x = np.random.default_rng(5).random((1, 3, 224, 224), dtype=np.float32)
    feeds = {"gpu_0/data_0": x}
    return load_onnx(m), feeds, reference_evaluator(m).run(None, feeds)


def _run(graph, feeds, mode, tmp_path):
    runner = ModelRunner(graph, mode=mode)
    runner.prepare()
    res = runner.run(feeds)
    trace = tmp_path / f"{mode}.json"
    profiling.write_trace(trace, metadata={"mode": mode})
    return runner, res, json.loads(trace.read_text())


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_resnet50_random_weights_match_reference_in_both_modes(resnet, mode, npu910, tmp_path):
    graph, feeds, ref = resnet
    runner, res, trace = _run(graph, feeds, mode, tmp_path)
    for name, r in zip(graph.outputs, ref):
        assert _rel(res.outputs[name], r) < 1e-3, (mode, name)
    kernels = [e for e in trace["traceEvents"] if e.get("ph") == "X" and "tiling" in e.get("args", {})]
    names = {e["name"] for e in kernels}
    assert trace["otherData"]["mode"] == mode
    if mode == "eager":
        assert {"BatchNorm", "Relu"} <= names and runner.passes == {}
        return
    assert not names & {"BatchNorm", "Relu", "Add"}, names
    assert runner.passes["fold_batchnorm"] == 53 and res.calls < 175 // 2
    fused = {tuple(e["args"]["fused"]) for e in kernels if "fused" in e["args"]}
    # the residual Sum+Relu rides in the last conv's epilogue (fuse_cube_epilogue, residual add)
    assert ("Conv", "BatchNormalization", "Relu") in fused and ("Conv", "BatchNormalization", "Sum", "Relu") in fused
    assert "FusedElementwise" not in names


def _small(rng, leaky: bool = False):
    """Conv+Relu (or LeakyRelu), Conv+BN+Clip(0, 6), MatMul+Add+Relu, Gemm+Relu, a GELU-like
    chain and an integer Cast chain (which the fused kernel refuses: fallback)."""
    f = np.float32
    inits = [("w1", rng.standard_normal((4, 3, 3, 3)).astype(f)), ("w2", rng.standard_normal((4, 4, 1, 1)).astype(f)),
             ("bs", rng.uniform(0.5, 1.5, 4).astype(f)), ("bb", rng.standard_normal(4).astype(f)),
             ("bm", rng.standard_normal(4).astype(f)), ("bv", rng.uniform(0.5, 2, 4).astype(f)),
             ("lo", f(0)), ("hi", f(6)), ("wm", rng.standard_normal((8, 16)).astype(f)),
             ("bias", rng.standard_normal(16).astype(f)), ("wg", rng.standard_normal((5, 16)).astype(f)),
             ("one", f(1)), ("half", f(0.5)), ("c", f(1.41421)), ("shape2d", np.array([4, 16], np.int64))]
    nodes = [helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
             helper.make_node("LeakyRelu", ["c1"], ["l1"], alpha=0.1) if leaky else
             helper.make_node("Relu", ["c1"], ["l1"]),
             helper.make_node("Conv", ["l1", "w2"], ["c2"]),
             helper.make_node("BatchNormalization", ["c2", "bs", "bb", "bm", "bv"], ["n2"]),
             helper.make_node("Clip", ["n2", "lo", "hi"], ["y1"]),
             helper.make_node("MatMul", ["t", "wm"], ["m"]), helper.make_node("Add", ["m", "bias"], ["mb"]),
             helper.make_node("Relu", ["mb"], ["r"]),
             helper.make_node("Div", ["r", "c"], ["d"]), helper.make_node("Erf", ["d"], ["e"]),
             helper.make_node("Add", ["e", "one"], ["p"]), helper.make_node("Mul", ["r", "p"], ["q"]),
             helper.make_node("Mul", ["q", "half"], ["y2"]),
             helper.make_node("Reshape", ["y2", "shape2d"], ["y2f"]),
             helper.make_node("Gemm", ["y2f", "wg"], ["g"], transB=1),
             helper.make_node("Relu", ["g"], ["y3"]),
             helper.make_node("Cast", ["ids"], ["idf"], to=onnx.TensorProto.FLOAT),
             helper.make_node("Sub", ["one", "idf"], ["y4"])]
    m = model(nodes, [("x", [1, 3, 6, 6]), ("t", [2, 2, 8])],
              [("y1", [1, 4, 6, 6]), ("y2", [2, 2, 16]), ("y3", [4, 5]), ("y4", [2, 3])], inits, opset=13)
    m.graph.input.append(helper.make_tensor_value_info("ids", onnx.TensorProto.INT64, [2, 3]))
    return m


def test_every_fused_kernel_matches_eager_and_reference(npu, rng, tmp_path):
    m = _small(rng)
    g = load_onnx(m)
    feeds = {"x": rng.standard_normal((1, 3, 6, 6)).astype(np.float32),
             "t": rng.standard_normal((2, 2, 8)).astype(np.float32), "ids": rng.integers(0, 5, (2, 3))}
    ref = reference_evaluator(m).run(None, feeds)
    outs = {}
    for mode in ("eager", "graph"):
        runner, res, trace = _run(g, feeds, mode, tmp_path)
        outs[mode] = res
        for name, r in zip(g.outputs, ref):
            assert _rel(res.outputs[name], r) < 1e-5, (mode, name)
    fused = sorted(tuple(e["args"]["fused"]) for e in trace["traceEvents"] if "fused" in e.get("args", {}))
    assert ("Conv", "Relu") in fused and ("Conv", "BatchNormalization", "Clip") in fused
    assert ("MatMul", "Add", "Relu") in fused and ("Gemm", "Relu") in fused
    assert ("Div", "Erf", "Add", "Mul", "Mul") in fused
    assert outs["graph"].calls < outs["eager"].calls


def test_leaky_relu_runs_in_graph_mode_as_a_fixpipe_epilogue(npu, rng, tmp_path):
    """Eager mode has no LeakyRelu kernel; after a Conv, graph mode applies it in FixPipe."""
    m = _small(rng, leaky=True)
    g = load_onnx(m)
    feeds = {"x": rng.standard_normal((1, 3, 6, 6)).astype(np.float32),
             "t": rng.standard_normal((2, 2, 8)).astype(np.float32), "ids": rng.integers(0, 5, (2, 3))}
    ref = reference_evaluator(m).run(None, feeds)
    _, res, trace = _run(g, feeds, "graph", tmp_path)
    assert _rel(res.outputs["y1"], ref[0]) < 1e-5
    assert any(e.get("args", {}).get("epilogue") == ["leaky_relu"] for e in trace["traceEvents"])


@pytest.mark.skipif(minilm_model_path() is None, reason="needs the optional `models` extra (MiniLM)")
def test_minilm_matches_reference_in_both_modes(npu910, tmp_path):
    path = minilm_model_path()
    r = np.random.default_rng(0)
    feeds = {"input_ids": r.integers(1000, 9000, (2, 16)), "attention_mask": np.ones((2, 16), np.int64)}
    g = load_onnx(path, overrides=feeds)
    ref = reference_evaluator(g.model).run(None, feeds)
    calls = {}
    for mode in ("eager", "graph"):
        runner, res, trace = _run(g, feeds, mode, tmp_path)
        calls[mode] = res.calls
        for name, rr in zip(g.outputs, ref):
            assert _rel(res.outputs[name], rr) < 1e-3, (mode, name)
    fused = {tuple(e["args"]["fused"]) for e in trace["traceEvents"] if "fused" in e.get("args", {})}
    assert ("MatMul", "Add") in fused and ("Div", "Erf", "Add", "Mul", "Mul") in fused
    assert calls["graph"] < calls["eager"]
