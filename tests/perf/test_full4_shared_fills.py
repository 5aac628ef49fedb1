"""Big ConstantOfShape fills of a full load share one buffer per value (issue 17):
``frontend.onnx_import.SHARED_FILLS`` and ``frontend.meta_const.share_fills``.

* Every constant of a load with the switch on has the dtype, shape and bytes of the
  same load with it off (each fill its own ``np.full``) and of numpy's own fill of the
  ConstantOfShape value; fills of one value view one read-only buffer, nothing stays a
  broadcast (stride 0), and a fill folded further (Reshape, Identity) is real too.
* A graph-mode run of such a model (conv and Gemm weights shared with the device) gives
  the output bytes of the switch-off run, which match onnx's ReferenceEvaluator.
"""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper
from onnx.reference import ReferenceEvaluator

from frontend import onnx_import
from frontend.meta_const import is_placeholder
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner

#: (name, shape, dtype, fill value) of the model's ConstantOfShape weights
#: (w1, w2, wg and wh are big enough to be kept as broadcasts while folding: >= 64 KiB)
FILLS = [("w1", (64, 32, 3, 3), np.float32, 0.02), ("w2", (96, 64, 3, 3), np.float32, 0.02),
         ("wg", (10, 96 * 6 * 6), np.float32, -0.5), ("wh", (128, 300), np.float16, 0.02),
         ("small", (3, 4), np.float32, 0.02)]


def _fill_node(name, shape, dtype, value):
    shp = numpy_helper.from_array(np.array(shape, np.int64), f"{name}_shape")
    val = numpy_helper.from_array(np.array([value], dtype))
    return shp, helper.make_node("ConstantOfShape", [f"{name}_shape"], [name], value=val)


def _model():
    inits, nodes = [], []
    for f in FILLS:
        init, node = _fill_node(*f)
        inits.append(init)
        nodes.append(node)
    inits.append(numpy_helper.from_array(np.array([96 * 6 * 6, 10], np.int64), "wg_t_shape"))
    nodes += [helper.make_node("Identity", ["w2"], ["w2i"]),
              helper.make_node("Transpose", ["wg"], ["wg_t"]),                # folded from a fill
              helper.make_node("Reshape", ["wg_t", "wg_t_shape"], ["wg_r"]),
              helper.make_node("Conv", ["x", "w1"], ["c1"], pads=[1, 1, 1, 1]),
              helper.make_node("Relu", ["c1"], ["r1"]),
              helper.make_node("Conv", ["r1", "w2i"], ["c2"], pads=[1, 1, 1, 1]),
              helper.make_node("Flatten", ["c2"], ["f"]),
              helper.make_node("MatMul", ["f", "wg_r"], ["y"])]
    g = helper.make_graph(nodes, "fills", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 32, 6, 6])],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 10])], inits)
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _load(monkeypatch, shared: bool):
    monkeypatch.setattr(onnx_import, "SHARED_FILLS", shared)
    return load_onnx(_model())


def _owner(a: np.ndarray) -> np.ndarray:
    while isinstance(a.base, np.ndarray):
        a = a.base
    return a


def test_constants_equal_numpy_fills_and_share_buffers(monkeypatch):
    on, off = _load(monkeypatch, True), _load(monkeypatch, False)
    assert on.constants.keys() == off.constants.keys()
    for name, a in on.constants.items():
        b = off.constants[name]
        assert a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes(), name
        assert not is_placeholder(a), name
    for name, shape, dtype, value in FILLS:
        want = np.full(shape, value, dtype)   # numpy's fill of the ConstantOfShape value
        assert on.constants[name].flags.c_contiguous, name
        assert on.constants[name].tobytes() == want.tobytes() and on.constants[name].dtype == want.dtype
    w1, w2, wg = on.constants["w1"], on.constants["w2"], on.constants["wg"]
    assert _owner(w1) is _owner(w2) and not _owner(w1).flags.writeable and not w1.flags.writeable
    assert _owner(wg) is not _owner(w1)                      # another value: another buffer
    assert _owner(on.constants["wh"]) is not _owner(w1)      # another dtype too
    assert on.constants["small"].flags.writeable             # below the size kept as a broadcast: np.full
    assert on.constants["wg_r"].tobytes() == np.full((96 * 6 * 6, 10), -0.5, np.float32).tobytes()


@pytest.mark.parametrize("shared", [True, False])
def test_graph_run_matches_the_reference(device, monkeypatch, shared):
    x = np.random.default_rng(0).standard_normal((1, 32, 6, 6)).astype(np.float32)
    r = ModelRunner(_load(monkeypatch, shared), mode="graph", memory="planned")
    r.prepare()
    got = r.run({"x": x}).outputs["y"]
    want = ReferenceEvaluator(_model()).run(None, {"x": x})[0]
    np.testing.assert_allclose(got, want, rtol=1e-5)
    if shared:   # both switch settings give the same bytes
        monkeypatch.setattr(onnx_import, "SHARED_FILLS", False)
        r2 = ModelRunner(load_onnx(_model()), mode="graph", memory="planned")
        r2.prepare()
        assert r2.run({"x": x}).outputs["y"].tobytes() == got.tobytes()
