"""fuse_add_rms_norm and fuse_swiglu: what each matches and what it must not match, and
the fused kernels end to end (numbers against the reference in both modes, member ops
named in the trace)."""
from __future__ import annotations

import json

import numpy as np
import pytest
from onnx import helper

from frontend import profiling
from frontend.onnx_import import load_onnx
from frontend.passes import apply_passes, fuse_add_rms_norm, fuse_swiglu, pass_names
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

from .graphs import graph, model, ops

S = [2, 5, 8]
f = np.float32


def _norm(x="s", y="y", scale="g", **kw):
    return helper.make_node("RMSNormalization", [x, scale], [y], **kw)


def _rms_model(nodes, outputs=(("y", S),), inputs=(("a", S), ("b", S)), inits=None):
    inits = [("g", np.linspace(0.5, 1.5, 8).astype(f))] if inits is None else inits
    return model(nodes, list(inputs), list(outputs), inits, opset=23)


def test_passes_are_listed_in_order():
    names = pass_names()
    assert names.index("fuse_cube_epilogue") < names.index("fuse_add_rms_norm") < names.index("fuse_swiglu") \
        < names.index("fuse_elementwise")


def test_add_then_rms_norm_is_one_node_keeping_the_sum():
    g = graph(_rms_model([helper.make_node("Add", ["a", "b"], ["s"]), _norm(epsilon=1e-3)]))
    assert fuse_add_rms_norm(g) == 1
    n, = g.nodes
    assert n.op_type == "FusedAddRmsNorm" and n.inputs == ["a", "b", "g"] and n.outputs == ["y", "s"]
    assert n.attrs["fused"] == ["Add", "RMSNormalization"] and n.attrs["epsilon"] == pytest.approx(1e-3)


def test_a_second_consumer_of_the_sum_reads_xout():
    g = graph(_rms_model([helper.make_node("Add", ["a", "b"], ["s"]), helper.make_node("Relu", ["s"], ["r"]),
                          _norm()], outputs=(("y", S), ("r", S))))
    assert fuse_add_rms_norm(g) == 1
    assert ops(g) == ["FusedAddRmsNorm", "Relu"] and g.nodes[1].inputs == ["s"]


def test_not_matched_broadcast_add_scale_input_stash_type_and_broadcast_scale():
    g = graph(_rms_model([helper.make_node("Add", ["a", "b"], ["s"]), _norm()], inputs=(("a", S), ("b", [8]))))
    assert fuse_add_rms_norm(g) == 0                              # a bias Add broadcasts
    g = graph(_rms_model([helper.make_node("Add", ["a", "b"], ["s"]), _norm("a", "y", "s", axis=0)],
                         inputs=(("a", S), ("b", S))))
    assert fuse_add_rms_norm(g) == 0                              # the Add feeds the scale, not X
    g = graph(_rms_model([helper.make_node("Add", ["a", "b"], ["s"]), _norm(stash_type=0)]))
    assert fuse_add_rms_norm(g) == 0
    g = graph(_rms_model([helper.make_node("Add", ["a", "b"], ["s"]), _norm()], inits=[("g", np.ones((1,), f))]))
    assert fuse_add_rms_norm(g) == 0                              # scale only broadcasts to [8]


def _swiglu_split(axis=-1, extra=False):
    nodes = [helper.make_node("Split", ["x"], ["a", "b"], axis=axis, num_outputs=2),
             helper.make_node("Sigmoid", ["a"], ["sa"]), helper.make_node("Mul", ["sa", "a"], ["m"]),
             helper.make_node("Mul", ["b", "m"], ["y"])]
    outs = [("y", [2, 3, 4])]
    if extra:
        nodes.append(helper.make_node("Neg", ["sa"], ["z"]))
        outs.append(("z", [2, 3, 4]))
    return model(nodes, [("x", [2, 3, 8])], outs, opset=18)


def test_swiglu_of_a_split_is_one_node():
    g = graph(_swiglu_split())
    assert fuse_swiglu(g) == 1
    n, = g.nodes
    assert n.op_type == "FusedSwiGlu" and n.inputs == ["x"] and n.attrs["dim"] == 2
    assert n.attrs["fused"] == ["Split", "Sigmoid", "Mul", "Mul"]


def test_swiglu_not_matched_when_the_gate_has_a_second_consumer_or_b_is_a():
    assert fuse_swiglu(graph(_swiglu_split(extra=True))) == 0
    m = model([helper.make_node("Sigmoid", ["x"], ["s"]), helper.make_node("Mul", ["x", "s"], ["m"]),
               helper.make_node("Mul", ["m", "x"], ["y"])], [("x", [2, 8])], [("y", [2, 8])], opset=18)
    assert fuse_swiglu(graph(m)) == 0        # x * sigmoid(x) * x: no second half


def _mlp(rng, same_input=True, hidden=6, ffn=5):
    inits = [("wg", rng.standard_normal((hidden, ffn)).astype(f)), ("wu", rng.standard_normal((hidden, ffn)).astype(f))]
    nodes = [helper.make_node("MatMul", ["h", "wg"], ["a"]),
             helper.make_node("MatMul", ["h" if same_input else "h2", "wu"], ["b"]),
             helper.make_node("Sigmoid", ["a"], ["sa"]), helper.make_node("Mul", ["a", "sa"], ["m"]),
             helper.make_node("Mul", ["m", "b"], ["y"])]
    ins = [("h", [3, 4, hidden])] + ([] if same_input else [("h2", [3, 4, hidden])])
    return model(nodes, ins, [("y", [3, 4, ffn])], inits, opset=18)


def test_swiglu_of_two_matmuls_joins_the_weights(rng):
    g = graph(_mlp(rng))
    assert fuse_swiglu(g) == 1
    assert ops(g) == ["MatMul", "FusedSwiGlu"]
    w = g.constants[g.nodes[0].inputs[1]]
    assert w.shape == (6, 10) and g.nodes[1].attrs["dim"] == -1
    assert fuse_swiglu(graph(_mlp(rng, same_input=False))) == 0    # MatMuls over different inputs


def _run(g, feeds, mode, tmp_path):
    runner = ModelRunner(g, mode=mode)
    runner.prepare()
    res = runner.run(feeds)
    trace = tmp_path / f"{mode}.json"
    profiling.write_trace(trace, metadata={"mode": mode})
    return res, json.loads(trace.read_text())


def _fused(trace):
    return {tuple(e["args"]["fused"]) for e in trace["traceEvents"] if "fused" in e.get("args", {})}


def test_fused_llm_kernels_match_reference_in_both_modes_and_name_their_members(npu, rng, tmp_path):
    inits = [("g", rng.uniform(0.5, 1.5, 8).astype(f)), ("wg", rng.standard_normal((8, 6)).astype(f)),
             ("wu", rng.standard_normal((8, 6)).astype(f))]
    nodes = [helper.make_node("Add", ["a", "b"], ["s"]), _norm("s", "n"),
             helper.make_node("MatMul", ["n", "wg"], ["ga"]), helper.make_node("MatMul", ["n", "wu"], ["up"]),
             helper.make_node("Sigmoid", ["ga"], ["sg"]), helper.make_node("Mul", ["ga", "sg"], ["sl"]),
             helper.make_node("Mul", ["sl", "up"], ["y"]),
             helper.make_node("Split", ["s"], ["h1", "h2"], axis=-1, num_outputs=2),
             helper.make_node("Sigmoid", ["h1"], ["s1"]), helper.make_node("Mul", ["s1", "h1"], ["m1"]),
             helper.make_node("Mul", ["m1", "h2"], ["z"])]
    m = model(nodes, [("a", S), ("b", S)], [("y", [2, 5, 6]), ("z", [2, 5, 4]), ("s", S)], inits, opset=23)
    g = load_onnx(m)
    feeds = {"a": rng.standard_normal(S).astype(f), "b": rng.standard_normal(S).astype(f)}
    ref = reference_evaluator(m).run(None, feeds)
    calls = {}
    for mode in ("eager", "graph"):
        res, trace = _run(g, feeds, mode, tmp_path)
        calls[mode] = res.calls
        for name, r in zip(g.outputs, ref):
            np.testing.assert_allclose(res.outputs[name], r, rtol=1e-4, atol=1e-5, err_msg=f"{mode} {name}")
    fused = _fused(trace)
    assert ("Add", "RMSNormalization") in fused and ("MatMul", "MatMul", "Sigmoid", "Mul", "Mul") in fused
    assert ("Split", "Sigmoid", "Mul", "Mul") in fused
    assert calls["graph"] < calls["eager"]
    _, done = apply_passes(g, "graph", ["fuse_add_rms_norm", "fuse_swiglu"])
    assert "fuse_add_rms_norm" not in done and "fuse_swiglu" not in done
