"""fuse_rotary: the rotate-half rotary embedding an exporter emits, what it matches and
must not match, and the fused kernel's numbers in both modes."""
from __future__ import annotations

import json

import numpy as np
from onnx import helper

from frontend import profiling
from frontend.onnx_import import load_onnx
from frontend.passes import fuse_rotary
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

from .graphs import graph, model, ops

B, N, S, D = 2, 3, 5, 8
f = np.float32


def _rope(rng, *, swap=False, neg_out=False, cos_shape=(1, 1, S, D), lo_end=D // 2):
    ang = rng.uniform(-3, 3, cos_shape)
    inits = [("cos", np.cos(ang).astype(f)), ("sin", np.sin(ang).astype(f)),
             ("z", np.array([0], np.int64)), ("h", np.array([D // 2], np.int64)), ("lo_end", np.array([lo_end])),
             ("big", np.array([2 ** 62], np.int64)), ("last", np.array([-1], np.int64))]
    cat_in = ["x1", "nx2"] if swap else ["nx2", "x1"]
    nodes = [helper.make_node("Slice", ["x", "z", "lo_end", "last"], ["x1"]),
             helper.make_node("Slice", ["x", "h", "big", "last"], ["x2"]),
             helper.make_node("Neg", ["x2"], ["nx2"]), helper.make_node("Concat", cat_in, ["rot"], axis=-1),
             helper.make_node("Mul", ["x", "cos"], ["p1"]), helper.make_node("Mul", ["sin", "rot"], ["p2"]),
             helper.make_node("Add", ["p2", "p1"], ["y"])]
    outs = [("y", [B, N, S, D])] + ([("nx2", [B, N, S, D // 2])] if neg_out else [])
    return model(nodes, [("x", [B, N, S, D])], outs, inits, opset=18)


def test_rotate_half_is_one_node(rng):
    g = graph(_rope(rng))
    assert fuse_rotary(g) == 1
    n, = g.nodes
    assert n.op_type == "FusedRotaryPosEmb" and n.inputs == ["x", "cos", "sin"] and n.outputs == ["y"]
    assert n.attrs["fused"] == ["Slice", "Slice", "Neg", "Concat", "Mul", "Mul", "Add"]


def test_not_matched_swapped_halves_a_shared_neg_or_an_uneven_slice(rng):
    assert fuse_rotary(graph(_rope(rng, swap=True))) == 0
    assert fuse_rotary(graph(_rope(rng, neg_out=True))) == 0
    assert fuse_rotary(graph(_rope(rng, lo_end=3))) == 0
    g = graph(_rope(rng, cos_shape=(1, N, S, D)))         # cos varying over heads: not BSND-broadcastable
    assert fuse_rotary(g) == 0 and "Concat" in ops(g)


def test_fused_rotary_matches_reference_in_both_modes(npu, rng, tmp_path):
    m = _rope(rng, cos_shape=(B, 1, S, D))
    g = load_onnx(m)
    feeds = {"x": rng.standard_normal((B, N, S, D)).astype(f)}
    ref = reference_evaluator(m).run(None, feeds)[0]
    calls = {}
    for mode in ("eager", "graph"):
        runner = ModelRunner(g, mode=mode)
        runner.prepare()
        res = runner.run(feeds)
        calls[mode] = res.calls
        np.testing.assert_allclose(res.outputs["y"], ref, rtol=1e-5, atol=1e-6, err_msg=mode)
    trace = tmp_path / "t.json"
    profiling.write_trace(trace, metadata={})
    ev = json.loads(trace.read_text())["traceEvents"]
    assert any(e.get("name") == "ApplyRotaryPosEmb" and e.get("args", {}).get("fused", [None])[0] == "Slice"
               for e in ev)
    assert calls["graph"] < calls["eager"]
