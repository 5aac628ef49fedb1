"""fuse_rotary's q+k pairing: a query rotation and a key rotation that share cos/sin
become one aclnnApplyRotaryPosEmb (queryRef and keyRef in one kernel); what must stay
two kernels; the pair's numbers against the reference in both modes."""
from __future__ import annotations

import json

import numpy as np
import onnx
from onnx import helper, numpy_helper

from frontend import profiling
from frontend.onnx_import import load_onnx
from frontend.passes import fuse_rotary
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

from .graphs import graph, model, ops

B, NQ, NK, S, D = 2, 4, 2, 5, 8
f = np.float32


def _rotate(p: str, x: str, cos: str, sin: str, y: str):
    """Exported rotate-half of ``x`` into ``y`` (node names prefixed ``p``)."""
    return [helper.make_node("Slice", [x, "z", "h", "last"], [p + "x1"]),
            helper.make_node("Slice", [x, "h", "big", "last"], [p + "x2"]),
            helper.make_node("Neg", [p + "x2"], [p + "nx2"]),
            helper.make_node("Concat", [p + "nx2", p + "x1"], [p + "rot"], axis=-1),
            helper.make_node("Mul", [x, cos], [p + "p1"]), helper.make_node("Mul", [p + "rot", sin], [p + "p2"]),
            helper.make_node("Add", [p + "p1", p + "p2"], [y])]


def _qk(rng, *, k_shape=(B, NK, S, D), k_cos="cos", k_sin="sin", between=False):
    """q [B, NQ, S, D] and k rotated by cos/sin [1, 1, S, D] (k by ``k_cos``/``k_sin``)."""
    ang = rng.uniform(-3, 3, (2, 1, 1, S, D))
    inits = [("cos", np.cos(ang[0]).astype(f)), ("sin", np.sin(ang[0]).astype(f)),
             ("cos2", np.cos(ang[1]).astype(f)), ("sin2", np.sin(ang[1]).astype(f)),
             ("z", np.array([0], np.int64)), ("h", np.array([D // 2], np.int64)),
             ("big", np.array([2 ** 62], np.int64)), ("last", np.array([-1], np.int64))]
    nodes = _rotate("q_", "q", "cos", "sin", "qr")
    outs = [("qr", [B, NQ, S, D]), ("kr", list(k_shape))]
    if between:                                   # a reader of q' before k's rotation starts
        nodes.append(helper.make_node("Relu", ["qr"], ["qrelu"]))
        nodes.append(helper.make_node("Neg", ["qrelu"], ["k"]))
        ins = [("q", [B, NQ, S, D])]
    else:
        ins = [("q", [B, NQ, S, D]), ("k", list(k_shape))]
    nodes += _rotate("k_", "k", k_cos, k_sin, "kr")
    return model(nodes, ins, outs, inits, opset=18)


def test_query_and_key_sharing_cos_sin_are_one_node(rng):
    g = graph(_qk(rng))
    assert fuse_rotary(g) == 3                    # two rotations, one pair
    n, = g.nodes
    assert n.op_type == "FusedRotaryPosEmb" and n.attrs["pair"]
    assert n.inputs == ["q", "cos", "sin", "k"] and n.outputs == ["qr", "kr"]
    assert n.attrs["fused"] == ["Slice", "Slice", "Neg", "Concat", "Mul", "Mul", "Add"] * 2


def test_not_paired_different_cos_or_sin():
    rng = np.random.default_rng(0)
    for kc, ks in (("cos2", "sin"), ("cos", "sin2"), ("cos2", "sin2")):
        g = graph(_qk(rng, k_cos=kc, k_sin=ks))
        assert fuse_rotary(g) == 2 and ops(g) == ["FusedRotaryPosEmb"] * 2, (kc, ks)


def test_not_paired_another_batch_or_cos_sin_in_another_layout(rng):
    g = graph(_qk(rng, k_shape=(1, NK, S, D)))                 # k of batch 1 (cos broadcasts over B)
    assert fuse_rotary(g) == 2 and len(g.nodes) == 2
    m = _qk(rng, k_cos="cos_sd", k_sin="sin_sd")               # the same angles viewed [S, D] for k
    m.graph.node.extend([helper.make_node("Reshape", [c, "sd"], [c + "_sd"]) for c in ("cos", "sin")])
    m.graph.initializer.append(numpy_helper.from_array(np.array([S, D], np.int64), "sd"))
    nodes = list(m.graph.node)
    m.graph.ClearField("node")
    m.graph.node.extend(nodes[-2:] + nodes[:-2])
    g = graph(m)
    assert g.shapes.get("cos_sd") == (S, D) or "cos_sd" in g.constants
    assert fuse_rotary(g) == 2 and ops(g).count("FusedRotaryPosEmb") == 2


def test_a_reader_of_q_before_the_key_rotation_puts_the_pair_at_the_query(rng):
    m = _qk(rng)
    nodes = list(m.graph.node)
    m.graph.ClearField("node")
    m.graph.node.extend(nodes[:7] + [helper.make_node("Relu", ["qr"], ["qrelu"])] + nodes[7:])
    m.graph.output.append(helper.make_tensor_value_info("qrelu", onnx.TensorProto.FLOAT, [B, NQ, S, D]))
    g = graph(m)
    assert fuse_rotary(g) == 3
    assert ops(g) == ["FusedRotaryPosEmb", "Relu"] and g.nodes[0].outputs == ["qr", "kr"]


def test_a_key_computed_from_the_rotated_query_is_not_paired(rng):
    g = graph(_qk(rng, between=True))
    assert fuse_rotary(g) == 2
    assert ops(g) == ["FusedRotaryPosEmb", "Relu", "Neg", "FusedRotaryPosEmb"]


def test_pair_matches_reference_in_both_modes_and_is_one_kernel(npu, rng, tmp_path):
    m = _qk(rng)
    g = load_onnx(m)
    feeds = {"q": rng.standard_normal((B, NQ, S, D)).astype(f), "k": rng.standard_normal((B, NK, S, D)).astype(f)}
    ref = reference_evaluator(m).run(None, feeds)
    for mode in ("eager", "graph"):
        runner = ModelRunner(g, mode=mode)
        runner.prepare()
        since = len(profiling.kernel_records())
        res = runner.run(feeds)
        for name, r in zip(g.outputs, ref):
            np.testing.assert_allclose(res.outputs[name], r, rtol=1e-5, atol=1e-6, err_msg=f"{mode} {name}")
    recs = profiling.kernel_records(since)
    assert sum(r["name"] == "ApplyRotaryPosEmb" for r in recs) == 1
    trace = tmp_path / "t.json"
    profiling.write_trace(trace, metadata={})
    ev = json.loads(trace.read_text())["traceEvents"]
    assert any(e.get("name") == "ApplyRotaryPosEmb" and len(e.get("args", {}).get("fused", [])) == 14 for e in ev)
