"""``ModelRunner.prepare`` runs with the cyclic collector paused and, when the pause is
its own, ends with one young-generation collection (``gc.collect(1)``) before the
collector is enabled again; a caller that disabled the collector gets no collection
and keeps it disabled. The run's outputs match a float64 numpy reference either way."""
from __future__ import annotations

import gc

import numpy as np
import onnx
import pytest
from onnx import helper

from acl_runtime import acl
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner


def _model(tmp_path):
    T = onnx.TensorProto.FLOAT
    nodes = [helper.make_node("Relu", ["x"], ["a"]), helper.make_node("Add", ["a", "x"], ["y"])]
    g = helper.make_graph(nodes, "chain", [helper.make_tensor_value_info("x", T, [4, 64])],
                          [helper.make_tensor_value_info("y", T, None)])
    p = tmp_path / "chain.onnx"
    onnx.save(helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)]), p)
    return p


@pytest.mark.parametrize("was_enabled", [True, False])
def test_prepare_collects_young_once_when_paused_by_it(tmp_path, monkeypatch, was_enabled):
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    calls = []
    real = gc.collect

    def spy(*args):
        calls.append((args, gc.isenabled()))
        return real(*args)
    monkeypatch.setattr(gc, "collect", spy)
    x = np.random.default_rng(0).standard_normal((4, 64)).astype(np.float32)
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        (gc.enable if was_enabled else gc.disable)()
        r = ModelRunner(load_onnx(_model(tmp_path)), memory="planned")
        r.prepare()
        assert gc.isenabled() == was_enabled
        assert calls == ([((1,), False)] if was_enabled else [])
        y = r.run({"x": x}).outputs["y"]
        xd = x.astype(np.float64)
        np.testing.assert_allclose(y, np.maximum(xd, 0) + xd, rtol=1e-6)
    finally:
        gc.enable()
        acl.finalize()
