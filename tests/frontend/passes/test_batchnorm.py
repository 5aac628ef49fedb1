"""fold_batchnorm: what it folds (Conv, Gemm; numbers kept) and what it must not."""
from __future__ import annotations

import numpy as np
from onnx import helper

from frontend.passes import apply_passes, fold_batchnorm

from .graphs import bn_inits, bn_node, conv_bn, graph, model, ops


def test_conv_bn_is_folded_into_weights_and_bias(rng):
    g = graph(conv_bn(rng, relu=False))
    w, b = g.constants["w"].astype(np.float64), g.constants["b"].astype(np.float64)
    s = g.constants["bn_s"] / np.sqrt(g.constants["bn_v"].astype(np.float64) + 1e-5)
    assert fold_batchnorm(g) == 1
    assert ops(g) == ["FusedConv", "Identity"]
    conv = g.nodes[0]
    assert conv.outputs == ["n"] and conv.attrs["fused"] == ["Conv", "BatchNormalization"]
    w2, b2 = g.constants[conv.inputs[1]], g.constants[conv.inputs[2]]
    np.testing.assert_allclose(w2, w * s[:, None, None, None], rtol=1e-6)
    np.testing.assert_allclose(b2, s * (b - g.constants["bn_m"]) + g.constants["bn_b"], rtol=1e-5, atol=1e-6)


def test_not_folded_when_the_conv_output_has_a_second_consumer(rng):
    g = graph(conv_bn(rng, extra_consumer=True))
    assert fold_batchnorm(g) == 0
    assert "BatchNormalization" in ops(g)


def test_training_mode_batchnorm_is_not_folded(rng):
    g = graph(conv_bn(rng, training=True))
    assert fold_batchnorm(g) == 0
    assert "BatchNormalization" in ops(g)


def test_batchnorm_after_a_runtime_weight_is_not_folded(rng):
    m = model([helper.make_node("Conv", ["x", "w"], ["c"], name="conv"), bn_node("c", "y")],
              [("x", [1, 3, 4, 4]), ("w", [4, 3, 1, 1])], [("y", [1, 4, 4, 4])], bn_inits(4, rng))
    g = graph(m)
    assert fold_batchnorm(g) == 0


def test_gemm_bn_is_folded_and_eager_mode_leaves_the_graph_alone(rng):
    bm = rng.standard_normal((6, 5)).astype(np.float32)   # transB=1: [N, K]
    c = rng.standard_normal(6).astype(np.float32)
    m = model([helper.make_node("Gemm", ["x", "bm", "c"], ["g"], name="gemm", transB=1), bn_node("g", "y")],
              [("x", [2, 5])], [("y", [2, 6])], [("bm", bm), ("c", c)] + bn_inits(6, rng))
    g = graph(m)
    same, done = apply_passes(g, "eager")
    assert same is g and done == {}
    g2, done = apply_passes(g, "graph")
    assert done["fold_batchnorm"] == 1 and ops(g) == ["Gemm", "BatchNormalization"]
    assert ops(g2) == ["FusedMatMul"] and g2.nodes[0].attrs["fused"] == ["Gemm", "BatchNormalization"]
    x = rng.standard_normal((2, 5))
    k = g.constants
    s = k["bn_s"] / np.sqrt(k["bn_v"] + 1e-5)
    ref = s * (x @ bm.T + c - k["bn_m"]) + k["bn_b"]
    n = g2.nodes[0]
    assert n.attrs["transB"] == 1 and n.attrs["activation"] == "none"
    got = x @ g2.constants[n.inputs[1]].T + g2.constants[n.inputs[2]]
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5)
