"""Training-mode BatchNormalization (opset 15, training_mode=1) through the ONNX frontend:
Y, running_mean and running_var match onnx's reference in eager and graph mode, and
graph mode's fold_batchnorm leaves the training-mode node alone."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from frontend.onnx_import import load_onnx
from frontend.passes import apply_passes
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner


def _model(rng, momentum=0.8):
    c = 4
    inits = [("w", rng.standard_normal((c, 3, 3, 3)).astype(np.float32)),
             ("s", rng.standard_normal(c).astype(np.float32)), ("bb", rng.standard_normal(c).astype(np.float32)),
             ("m", rng.standard_normal(c).astype(np.float32)), ("v", rng.uniform(0.5, 2, c).astype(np.float32))]
    nodes = [helper.make_node("Conv", ["x", "w"], ["c"], name="conv", pads=[1, 1, 1, 1]),
             helper.make_node("BatchNormalization", ["c", "s", "bb", "m", "v"], ["y", "rm", "rv"], name="bn",
                              training_mode=1, momentum=momentum, epsilon=1e-3)]
    g = helper.make_graph(nodes, "bn_train", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, c, 6, 6]),
                           helper.make_tensor_value_info("rm", TensorProto.FLOAT, [c]),
                           helper.make_tensor_value_info("rv", TensorProto.FLOAT, [c])],
                          [onnx.numpy_helper.from_array(a, n) for n, a in inits])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 15)])


def test_graph_mode_does_not_fold_training_batchnorm(rng):
    g = load_onnx(_model(rng))
    g2, done = apply_passes(g, "graph")
    assert done.get("fold_batchnorm", 0) == 0
    assert "BatchNormalization" in [n.op_type for n in g2.nodes]


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_training_batchnorm_matches_reference(npu, rng, mode):
    m = _model(rng)
    x = rng.standard_normal((2, 3, 6, 6)).astype(np.float32)
    want = reference_evaluator(m).run(None, {"x": x})
    runner = ModelRunner(load_onnx(m), mode=mode)
    runner.prepare()
    res = runner.run({"x": x})
    for name, w in zip(("y", "rm", "rv"), want):
        np.testing.assert_allclose(res.outputs[name], w, rtol=1e-4, atol=1e-5)
