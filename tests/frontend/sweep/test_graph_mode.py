"""Sweeps run ONNX models in graph mode by default (the graph-mode passes of
frontend.passes), and in eager mode when the experiment says so."""
from __future__ import annotations

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

from frontend.sweep.point import run_point
from npu_sim import PRESETS


def _conv_bn_relu(path):
    rng = np.random.default_rng(0)
    w = numpy_helper.from_array(rng.standard_normal((4, 3, 3, 3)).astype(np.float32), "w")
    bn = [numpy_helper.from_array(v.astype(np.float32), n) for n, v in
          (("s", rng.random(4) + 0.5), ("b", rng.standard_normal(4)), ("m", rng.standard_normal(4)),
           ("v", rng.random(4) + 0.5))]
    g = helper.make_graph(
        [helper.make_node("Conv", ["x", "w"], ["c"], pads=[1, 1, 1, 1]),
         helper.make_node("BatchNormalization", ["c", "s", "b", "m", "v"], ["n"]),
         helper.make_node("Relu", ["n"], ["y"])],
        "cbr", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 4, 8, 8])], [w] + bn)
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)]), str(path))
    return str(path)


def test_graph_mode_fuses_and_eager_does_not(tmp_path):
    model = _conv_bn_relu(tmp_path / "cbr.onnx")
    chip = PRESETS["tiny"].model_dump(mode="json")
    graph = run_point(chip, {"model": model}, True, "graph")
    eager = run_point(chip, {"model": model}, True, "eager")
    edge = ("__to_nc1hwc0", "__to_nchw")   # the TransData nodes of keep_nc1hwc0 aside
    g_ops = [o["name"] for o in graph["ops"] if not o["name"].endswith(edge)]
    e_ops = [o["name"] for o in eager["ops"]]
    assert len(g_ops) == 1 and len(e_ops) == 3, (g_ops, e_ops)      # Conv+BN+Relu fused into one kernel
    assert graph["latency_ns"] < eager["latency_ns"]
