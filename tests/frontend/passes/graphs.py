"""Small ONNX graphs for the pass tests, built with onnx.helper and loaded as
:class:`frontend.graph.Graph` (no device)."""
from __future__ import annotations

import numpy as np
from onnx import TensorProto, helper, numpy_helper

from frontend.onnx_import import load_onnx


def model(nodes, inputs, outputs, inits=(), opset=15):
    """A ModelProto: ``inputs``/``outputs`` are (name, shape) pairs (float32),
    ``inits`` (name, array) pairs."""
    g = helper.make_graph(nodes, "t", [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in inputs],
                          [helper.make_tensor_value_info(n, TensorProto.FLOAT, s) for n, s in outputs],
                          [numpy_helper.from_array(np.asarray(a), n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])
    m.ir_version = 8
    return m


def bn_inits(c: int, rng, prefix: str = "bn"):
    return [(f"{prefix}_s", rng.uniform(0.5, 1.5, c).astype(np.float32)),
            (f"{prefix}_b", rng.standard_normal(c).astype(np.float32)),
            (f"{prefix}_m", rng.standard_normal(c).astype(np.float32)),
            (f"{prefix}_v", rng.uniform(0.5, 2.0, c).astype(np.float32))]


def bn_node(x: str, y: str, prefix: str = "bn", **attrs):
    return helper.make_node("BatchNormalization", [x] + [f"{prefix}_{k}" for k in "sbmv"], [y], name=prefix,
                            **attrs)


def conv_bn(rng, *, extra_consumer=False, relu=True, training=False):
    """x[1,3,8,8] -> Conv(w, b) -> BN -> [Relu] -> y (and Conv output also to z)."""
    w = rng.standard_normal((4, 3, 3, 3)).astype(np.float32)
    b = rng.standard_normal(4).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             bn_node("c", "n", training_mode=1 if training else 0)]
    outs = [("y", [1, 4, 8, 8])]
    nodes.append(helper.make_node("Relu", ["n"], ["y"], name="relu") if relu else
                 helper.make_node("Identity", ["n"], ["y"], name="id"))
    if extra_consumer:
        nodes.append(helper.make_node("Neg", ["c"], ["z"], name="neg"))
        outs.append(("z", [1, 4, 8, 8]))
    return model(nodes, [("x", [1, 3, 8, 8])], outs, [("w", w), ("b", b)] + bn_inits(4, rng))


def graph(m):
    return load_onnx(m)


def ops(g):
    return [n.op_type for n in g.nodes]


def run_modes(g, feeds, modes=("eager", "graph")):
    """Prepare and run Graph ``g`` on the open device in each mode: mode -> RunResult."""
    from frontend.runner import ModelRunner
    out = {}
    for mode in modes:
        runner = ModelRunner(g, mode=mode)
        runner.prepare()
        out[mode] = runner.run(feeds)
    return out
