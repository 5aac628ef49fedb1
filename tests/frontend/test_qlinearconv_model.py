"""A QLinearConv ResNet-style block built with onnx.helper runs on aclnnQuantConvolution
(the int8 Cube) and its integer outputs equal the onnx reference evaluator's exactly:
uint8 input (zero point 128), a 3x3 QLinearConv with per-channel int8 weights and an
int32 bias, a second 3x3 QLinearConv with uint8 weights (zero point 128, so the weight
shift stays int8), a 1x1 stride-2 downsample whose weight zero point pushes w - zw past
int8 (the two-part split), a residual Add through DequantizeLinear / QuantizeLinear, and
a ConvInteger side output with per-channel w zero points. Also onnx's own
ConvInteger / QLinearConv node cases (the runner's table does not list these ops yet:
the lead adds them to ``frontend/onnx_node_tests/cases.py``)."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.onnx_import import load_onnx
from frontend.onnx_node_tests import cases as node_cases
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

C, H, W = 8, 9, 9


def _init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def _model(rng):
    inits, nodes = [], []

    def add(name, arr):
        inits.append(_init(name, arr))
        return name

    def qconv(x, sx, zx, w, sw, zw, sy, zy, out, bias=None, **attrs):
        ins = [x, sx, zx, add(out + "_w", w), add(out + "_ws", sw), add(out + "_wz", zw), add(out + "_ys", sy),
               add(out + "_yz", zy)] + ([add(out + "_b", bias)] if bias is not None else [])
        nodes.append(helper.make_node("QLinearConv", ins, [out], **attrs))
        return out

    add("x_s", np.float32(2 ** -4))
    add("x_z", np.uint8(128))
    nodes.append(helper.make_node("QuantizeLinear", ["x", "x_s", "x_z"], ["x_q"]))
    w1 = rng.integers(-90, 90, (C, 4, 3, 3)).astype(np.int8)
    c1 = qconv("x_q", "x_s", "x_z", w1, rng.uniform(0.002, 0.02, C).astype(np.float32), np.zeros(C, np.int8),
               np.float32(0.0371), np.uint8(7), "c1", bias=rng.integers(-2000, 2000, C).astype(np.int32),
               pads=[1, 1, 1, 1])
    w2 = rng.integers(0, 256, (C, C // 2, 3, 3)).astype(np.uint8)
    c2 = qconv(c1, "c1_ys", "c1_yz", w2, np.float32(0.0113), np.uint8(128), np.float32(0.2197), np.uint8(120),
               "c2", pads=[1, 0, 1, 2], group=2)
    wd = rng.integers(0, 100, (C, 4, 1, 1)).astype(np.uint8)
    down = qconv("x_q", "x_s", "x_z", wd, np.float32(0.0049), np.uint8(250), np.float32(0.0625), np.int8(-5),
                 "down", strides=[2, 2])
    nodes.append(helper.make_node("DequantizeLinear", [c2, "c2_ys", "c2_yz"], ["c2_f"]))
    nodes.append(helper.make_node("MaxPool", ["c2_f"], ["c2_p"], kernel_shape=[1, 1], strides=[2, 2]))
    nodes.append(helper.make_node("DequantizeLinear", [down, "down_ys", "down_yz"], ["down_f"]))
    nodes.append(helper.make_node("Add", ["c2_p", "down_f"], ["res"]))
    nodes.append(helper.make_node("Relu", ["res"], ["act"]))
    add("y_s", np.float32(2 ** -3))
    add("y_z", np.uint8(0))
    nodes.append(helper.make_node("QuantizeLinear", ["act", "y_s", "y_z"], ["y_q"]))
    add("ci_w", rng.integers(0, 256, (6, 4, 2, 3)).astype(np.uint8))
    add("ci_wz", rng.integers(100, 156, 6).astype(np.uint8))
    nodes.append(helper.make_node("ConvInteger", ["x_q", "ci_w", "x_z", "ci_wz"], ["ci"], pads=[0, 1, 1, 0],
                                  dilations=[2, 1]))
    graph = helper.make_graph(
        nodes, "qlinearconv_resnet", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [2, 4, H, W])],
        [helper.make_tensor_value_info(n, t, None) for n, t in
         (("y_q", TensorProto.UINT8), ("c1", TensorProto.UINT8), ("c2", TensorProto.UINT8),
          ("down", TensorProto.INT8), ("ci", TensorProto.INT32))], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


OUTS = ("y_q", "c1", "c2", "down", "ci")


def test_qlinearconv_resnet_block_matches_the_reference_exactly(npu, rng):
    model = _model(rng)
    x = (rng.standard_normal((2, 4, H, W)) * 3).astype(np.float32)
    want = dict(zip(OUTS, reference_evaluator(model).run(None, {"x": x})))
    r = ModelRunner(load_onnx(model), mode="eager")
    r.prepare()
    got = r.run({"x": x}).outputs
    for name in OUTS:
        assert got[name].dtype == want[name].dtype and np.array_equal(got[name], want[name]), name
        assert len(np.unique(want[name])) > 3, name     # not degenerate (saturated or constant)
    apis = [c.aclnn for c in r.program.calls]
    assert apis.count("aclnnQuantConvolution") == 4 and "aclnnConvolution" not in apis
    assert "aclnnCat" in apis   # the downsample's two-part weight split


@pytest.mark.parametrize("op", ["ConvInteger", "QLinearConv"])
def test_onnx_node_cases_pass(monkeypatch, op):
    monkeypatch.setitem(node_cases.STATIC_INPUTS, op, tuple(range(1, 9)) if op == "QLinearConv" else (1, 2, 3))
    monkeypatch.setitem(node_cases.MODULES, op, op.lower())
    cases = node_cases.collect([op])
    assert cases
    for case in cases:
        res = node_cases.run_case(case)
        assert res.status == "pass", (case.name, res)
