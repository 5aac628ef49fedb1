"""CNN models built with onnx.helper, random weights, through ``npu-sim run`` on the tiny
chip (the CLI's own check against the corrected onnx reference evaluator,
DESIGN.md section 9) and through the frontend runner against that reference directly:

* MobileNetV2-style: a 3x3/2 stem with HardSwish, inverted-residual blocks (1x1
  expand + Relu6, explicit Pad + depthwise 3x3, HardSwish, 1x1 project, residual
  Add), a stride-2 block, GlobalAveragePool, Flatten, Gemm.
* U-Net-style: two encoder levels (Conv + Relu, MaxPool), a bottleneck, a decoder with
  ConvTranspose 2x2/2 and a Resize (linear, scale 2), skip Concats, a 1x1 head and
  Sigmoid.
"""
from __future__ import annotations

import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.cli import main

RNG = np.random.default_rng(11)


class _G:
    """A tiny graph builder: weights are random initializers (He-scaled)."""

    def __init__(self):
        self.nodes, self.inits, self.n = [], [], 0

    def name(self, p):
        self.n += 1
        return f"{p}{self.n}"

    def w(self, shape, scale=None):
        nm = self.name("w")
        fan = int(np.prod(shape[1:])) or 1
        arr = (RNG.standard_normal(shape) * (scale or np.sqrt(2.0 / fan))).astype(np.float32)
        self.inits.append(numpy_helper.from_array(arr, nm))
        return nm

    def const(self, arr):
        nm = self.name("c")
        self.inits.append(numpy_helper.from_array(np.asarray(arr), nm))
        return nm

    def op(self, op, ins, **attrs):
        out = self.name(op.lower() + "_")
        self.nodes.append(helper.make_node(op, ins, [out], name=out, **attrs))
        return out

    def conv(self, x, cin, cout, k, stride=1, pad=None, group=1, bias=True):
        ins = [x, self.w((cout, cin // group, k, k))] + ([self.w((cout,), 0.1)] if bias else [])
        p = (k // 2) if pad is None else pad
        return self.op("Conv", ins, kernel_shape=[k, k], strides=[stride, stride], pads=[p] * 4, group=group)

    def model(self, x_shape, out, opset=18):
        g = helper.make_graph(self.nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info(out, TensorProto.FLOAT, None)], self.inits)
        return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def _inverted_residual(g, x, c, expand, stride):
    h = g.op("Clip", [g.conv(x, c, c * expand, 1), g.const(np.float32(0)), g.const(np.float32(6))])
    h = g.op("Pad", [h, g.const(np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))], mode="constant")
    h = g.op("HardSwish", [g.conv(h, c * expand, c * expand, 3, stride, pad=0, group=c * expand)])
    h = g.conv(h, c * expand, c, 1, bias=False)
    return g.op("Add", [x, h]) if stride == 1 else h


def mobilenet_v2_style():
    g = _G()
    x = g.op("HardSwish", [g.conv("x", 3, 16, 3, 2)])
    x = _inverted_residual(g, x, 16, 3, 1)
    x = _inverted_residual(g, x, 16, 4, 2)
    x = _inverted_residual(g, x, 16, 3, 1)
    x = g.op("Flatten", [g.op("GlobalAveragePool", [x])])
    y = g.op("Gemm", [x, g.w((10, 16)), g.w((10,), 0.1)], transB=1)
    return g.model([1, 3, 32, 32], y)


def unet_style():
    g = _G()
    e1 = g.op("Relu", [g.conv("x", 3, 8, 3)])
    e2 = g.op("Relu", [g.conv(g.op("MaxPool", [e1], kernel_shape=[2, 2], strides=[2, 2]), 8, 16, 3)])
    b = g.op("Relu", [g.conv(g.op("MaxPool", [e2], kernel_shape=[2, 2], strides=[2, 2]), 16, 16, 3)])
    u2 = g.op("ConvTranspose", [b, g.w((16, 16, 2, 2)), g.w((16,), 0.1)], kernel_shape=[2, 2], strides=[2, 2])
    d2 = g.op("Relu", [g.conv(g.op("Concat", [u2, e2], axis=1), 32, 8, 3)])
    u1 = g.op("Resize", [d2, "", g.const(np.array([1, 1, 2, 2], np.float32))], mode="linear")
    d1 = g.op("Relu", [g.conv(g.op("Concat", [u1, e1], axis=1), 16, 8, 3)])
    y = g.op("Sigmoid", [g.conv(d1, 8, 2, 1)])
    return g.model([1, 3, 16, 16], y)


@pytest.mark.parametrize("build", [mobilenet_v2_style, unet_style], ids=["mobilenet_v2", "unet"])
def test_cnn_model_cli_check_passes(build, tmp_path, capsys):
    model = build()
    path = tmp_path / "m.onnx"
    onnx.save(model, path)
    x = RNG.random([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]).astype(np.float32)
    np.savez(tmp_path / "x.npz", x=x)
    rc = main(["run", str(path), "--inputs", str(tmp_path / "x.npz"), "--no-progress", "--trace", "",
               "--chip", "tiny"])
    out = capsys.readouterr().out
    assert rc == 0, out
    m = re.search(r"max rel err ([0-9.e+-]+) \(PASS at 1e-03\)", out)
    assert m and float(m.group(1)) < 1e-4, out


def run_on_tiny(model, feeds: dict):
    """Prepare ``model`` with the frontend runner (what ``npu-sim run`` calls) on the
    tiny chip and run it once: (outputs by name, the aclnn names of its calls)."""
    from acl_runtime import acl

    from frontend.onnx_import import load_onnx
    from frontend.profiling import acl_initialized
    from frontend.runner import ModelRunner
    if acl_initialized():
        acl.finalize()
    acl.init(chip="tiny")
    acl.rt.set_device(0)
    try:
        runner = ModelRunner(load_onnx(model))
        runner.prepare()
        got = runner.run(feeds).outputs
        names = [c.aclnn for c in runner.calls] if hasattr(runner.calls[0], "aclnn") else []
    finally:
        acl.finalize()
    return got, names


@pytest.mark.parametrize("build", [mobilenet_v2_style, unet_style], ids=["mobilenet_v2", "unet"])
def test_cnn_model_runner_matches_corrected_reference(build):
    """The same models through the frontend runner (what ``npu-sim run`` calls), every
    kernel listed, against the corrected reference at float32 tolerance."""
    from frontend.reference import reference_evaluator
    model = build()
    x = RNG.random([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]).astype(np.float32)
    outs, names = run_on_tiny(model, {"x": x})
    got = outs[model.graph.output[0].name]
    want = reference_evaluator(model).run(None, {"x": x})[0]
    assert got.shape == want.shape
    err = np.abs(got.astype(np.float64) - want).max() / np.abs(want).max()
    assert err < 1e-5, err
    if names:
        assert any("Convolution" in n for n in names)
