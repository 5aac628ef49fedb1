"""fuse_cube_epilogue: Conv + Relu/LeakyRelu/Clip into FixPipe, and what it must not fuse."""
from __future__ import annotations

import numpy as np
from onnx import helper

from frontend.passes import apply_passes, fuse_cube_epilogue, pass_names

from .graphs import conv_bn, graph, model, ops


def _conv_act(rng, act_nodes, outputs=(("y", [1, 4, 6, 6]),), inputs=(("x", [1, 3, 6, 6]),)):
    w = rng.standard_normal((4, 3, 1, 1)).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv")] + act_nodes
    return graph(model(nodes, list(inputs), list(outputs), [("w", w), ("lo", np.float32(0)),
                                                             ("hi", np.float32(6))], opset=13))


def test_conv_bn_relu_becomes_one_fused_conv(rng):
    g, done = apply_passes(graph(conv_bn(rng)), "graph")
    assert ops(g) == ["TransData", "FusedConv", "TransData"]   # keep_nc1hwc0: NC1HWC0 at the model's edges
    a = g.nodes[1].attrs
    assert a["fused"] == ["Conv", "BatchNormalization", "Relu"] and a["activation"] == "relu"
    assert done == {**dict.fromkeys(pass_names(), 0), "fold_batchnorm": 1, "fuse_cube_epilogue": 1,
                    "keep_nc1hwc0": 1}


def test_leaky_relu_and_relu6_clip(rng):
    g = _conv_act(rng, [helper.make_node("LeakyRelu", ["c"], ["y"], alpha=0.2)])
    assert fuse_cube_epilogue(g) == 1
    assert (g.nodes[0].attrs["activation"], g.nodes[0].attrs["activation_alpha"]) == ("leaky_relu", np.float32(0.2))
    g = _conv_act(rng, [helper.make_node("Clip", ["c", "lo", "hi"], ["y"])])
    assert fuse_cube_epilogue(g) == 1
    a = g.nodes[0].attrs
    assert (a["activation"], a["activation_alpha"], a["activation_beta"]) == ("clip", 0.0, 6.0)


def test_not_fused_with_a_second_consumer_runtime_bounds_or_other_ops(rng):
    g = _conv_act(rng, [helper.make_node("Relu", ["c"], ["y"]), helper.make_node("Neg", ["c"], ["z"])],
                  outputs=(("y", [1, 4, 6, 6]), ("z", [1, 4, 6, 6])))
    assert fuse_cube_epilogue(g) == 0
    g = _conv_act(rng, [helper.make_node("Clip", ["c", "lo", "top"], ["y"])],
                  inputs=(("x", [1, 3, 6, 6]), ("top", [])))
    assert fuse_cube_epilogue(g) == 0
    g = _conv_act(rng, [helper.make_node("Sigmoid", ["c"], ["y"])])
    assert fuse_cube_epilogue(g) == 0
    g = _conv_act(rng, [], outputs=(("c", [1, 4, 6, 6]),))
    assert fuse_cube_epilogue(g) == 0 and ops(g) == ["Conv"]


def test_disable_pass_and_unknown_names(rng):
    g, done = apply_passes(graph(conv_bn(rng)), "graph", disabled=["fuse_cube_epilogue"])
    assert ops(g) == ["TransData", "FusedConv", "Relu", "TransData"] and "fuse_cube_epilogue" not in done
    for bad in ({"mode": "lazy"}, {"disabled": ["nope"]}):
        try:
            apply_passes(graph(conv_bn(rng)), **({"mode": "graph"} | bad))
        except ValueError:
            continue
        raise AssertionError(bad)
