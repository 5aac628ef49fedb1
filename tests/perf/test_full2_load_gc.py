"""``load_onnx`` runs with the cyclic garbage collector paused (npu_sim/host_gc.py; a
generation-2 collection over the process heap cost ~20 ms of DenseNet-121's load):
paused while it folds, enabled again after, also when the load raises, and left alone
under ``NPU_SIM_GC_PAUSE=0``. The loaded graph is the one an unpaused load gives."""
from __future__ import annotations

import gc

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend import onnx_import
from frontend.errors import UnsupportedModelError


def _model():
    w = np.arange(12, dtype=np.float32).reshape(3, 4)
    nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Relu", ["m"], ["y"])]
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 3])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [2, 4])],
                          [numpy_helper.from_array(w, "w")])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _load_seeing_gc(monkeypatch):
    seen = []
    real = onnx_import.infer_node_shapes

    def spy(*a, **k):
        seen.append(gc.isenabled())
        return real(*a, **k)
    monkeypatch.setattr(onnx_import, "infer_node_shapes", spy)
    return onnx_import.load_onnx(_model()), seen


def test_paused_while_loading_and_enabled_after(monkeypatch):
    assert gc.isenabled()
    g, seen = _load_seeing_gc(monkeypatch)
    assert seen and not any(seen) and gc.isenabled()
    monkeypatch.setenv("NPU_SIM_GC_PAUSE", "0")
    g2, seen2 = _load_seeing_gc(monkeypatch)
    assert seen2 and all(seen2)
    assert [(n.op_type, n.inputs, n.outputs) for n in g.nodes] == [(n.op_type, n.inputs, n.outputs) for n in g2.nodes]
    assert g.shapes == g2.shapes and g.constants["w"].tobytes() == g2.constants["w"].tobytes()


def test_enabled_again_after_a_failed_load():
    bad = _model()
    bad.graph.node[0].domain = "custom.domain"
    with pytest.raises(UnsupportedModelError):
        onnx_import.load_onnx(bad)
    assert gc.isenabled()
