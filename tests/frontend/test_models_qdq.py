"""A QDQ-quantized ResNet-style model built with onnx.helper (int8 Q/DQ around two
Conv blocks with a residual Add, GlobalAveragePool and a quantized MatMul classifier):
its integer outputs match the corrected onnx reference evaluator exactly, in eager
mode and in graph mode, where ``fuse_dequant_epilogue`` turns DQ -> MatMul -> Add -> Q
into one aclnnQuantMatmulV4 with FixPipe's per-channel requant. Plus what the pass
must not match. All scales are powers of two, so float32 arithmetic is exact in both
the reference and the simulator and "exactly" is a fair demand."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.onnx_import import load_onnx
from frontend.passes import apply_passes, pass_names
from frontend.reference import reference_evaluator
from frontend.runner import ModelRunner

C, H, W, OUT = 8, 8, 8, 10


def _init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


def _model(rng, bias_fc: bool = True, z_out: int = 3):
    inits, nodes = [], []

    def q(x, s, out):
        inits.extend([_init(out + "_s", np.float32(s)), _init(out + "_z", np.int8(0))])
        nodes.append(helper.make_node("QuantizeLinear", [x, out + "_s", out + "_z"], [out]))
        return out

    def dq(xq, out):
        nodes.append(helper.make_node("DequantizeLinear", [xq, xq + "_s", xq + "_z"], [out]))
        return out

    def conv_weight(name, cout, cin, sx):
        wq = rng.integers(-60, 60, (cout, cin, 3, 3)).astype(np.int8)
        sw = (2.0 ** -rng.integers(4, 7, cout)).astype(np.float32)
        bq = rng.integers(-300, 300, cout).astype(np.int32)
        inits.extend([_init(name + "_q", wq), _init(name + "_s", sw), _init(name + "_bq", bq),
                      _init(name + "_bs", (np.float32(sx) * sw).astype(np.float32))])
        nodes.append(helper.make_node("DequantizeLinear", [name + "_q", name + "_s"], [name], axis=0))
        nodes.append(helper.make_node("DequantizeLinear", [name + "_bq", name + "_bs"], [name + "_b"], axis=0))
        return name, name + "_b"

    x0 = dq(q("x", 2 ** -4, "x_q"), "x_dq")
    w1, b1 = conv_weight("w1", C, 4, 2 ** -4)
    nodes.append(helper.make_node("Conv", ["x_dq", w1, b1], ["c1"], pads=[1, 1, 1, 1]))
    nodes.append(helper.make_node("Relu", ["c1"], ["r1"]))
    a1 = dq(q("r1", 2 ** -2, "r1_q"), "r1_dq")
    w2, b2 = conv_weight("w2", C, C, 2 ** -2)
    nodes.append(helper.make_node("Conv", [a1, w2, b2], ["c2"], pads=[1, 1, 1, 1]))
    c2 = dq(q("c2", 2 ** -2, "c2_q"), "c2_dq")
    nodes.append(helper.make_node("Add", [a1, c2], ["res"]))
    nodes.append(helper.make_node("Relu", ["res"], ["r2"]))
    a2 = dq(q("r2", 2 ** -2, "r2_q"), "r2_dq")
    nodes.append(helper.make_node("GlobalAveragePool", [a2], ["gap"]))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"]))
    f = dq(q("flat", 2 ** -3, "flat_q"), "flat_dq")
    wfq = rng.integers(-100, 100, (C, OUT)).astype(np.int8)
    sfw = (2.0 ** -rng.integers(3, 6, OUT)).astype(np.float32)
    inits.extend([_init("wf_q", wfq), _init("wf_s", sfw)])
    nodes.append(helper.make_node("DequantizeLinear", ["wf_q", "wf_s"], ["wf"], axis=1))
    nodes.append(helper.make_node("MatMul", [f, "wf"], ["mm"]))
    y = "mm"
    if bias_fc:
        bfc = (rng.integers(-200, 200, OUT) * (np.float32(2 ** -3) * sfw)).astype(np.float32)
        inits.append(_init("bf", bfc))
        nodes.append(helper.make_node("Add", ["mm", "bf"], ["logits"]))
        y = "logits"
    inits.extend([_init("y_s", np.float32(2 ** -2)), _init("y_z", np.int8(z_out))])
    nodes.append(helper.make_node("QuantizeLinear", [y, "y_s", "y_z"], ["y_q"]))
    graph = helper.make_graph(nodes, "qdq_resnet", [helper.make_tensor_value_info("x", TensorProto.FLOAT,
                                                                                   [2, 4, H, W])],
                              [helper.make_tensor_value_info("y_q", TensorProto.INT8, [2, OUT]),
                               helper.make_tensor_value_info("r2_q", TensorProto.INT8, [2, C, H, W])], inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])


@pytest.fixture
def qdq(rng):
    model = _model(rng)
    x = (rng.standard_normal((2, 4, H, W)) * 3).astype(np.float32)
    want = dict(zip(["y_q", "r2_q"], reference_evaluator(model).run(None, {"x": x})))
    return model, x, want


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_qdq_resnet_matches_the_reference_exactly(npu, qdq, mode):
    model, x, want = qdq
    r = ModelRunner(load_onnx(model), mode=mode)
    r.prepare()
    got = r.run({"x": x}).outputs
    for name in ("y_q", "r2_q"):
        assert got[name].dtype == np.int8 and np.array_equal(got[name], want[name]), name
    assert len(np.unique(want["y_q"])) > 3          # not a degenerate (saturated) output
    if mode == "graph":
        assert r.passes["fuse_dequant_epilogue"] == 1
        fused = [n for n in r.graph.nodes if n.op_type == "FusedQuantMatMul"]
        assert len(fused) == 1 and fused[0].attrs["fused"] == ["DequantizeLinear", "MatMul", "Add", "QuantizeLinear"]
        assert fused[0].attrs["fixpipe_scale"] == "per_channel"
    apis = [c.aclnn for c in r.program.calls]
    assert ("aclnnQuantMatmulV4" in apis) == (mode == "graph") and ("aclnnMatmul" in apis) == (mode == "eager")


def test_pass_is_listed_and_runs_before_the_cube_epilogue():
    names = pass_names()
    assert names.index("fuse_dequant_epilogue") < names.index("fuse_cube_epilogue")


def _fused_count(model) -> int:
    return apply_passes(load_onnx(model), "graph")[1]["fuse_dequant_epilogue"]


def test_pass_matches_without_bias_and_not_with_a_second_consumer(rng):
    assert _fused_count(_model(rng, bias_fc=False)) == 1
    m = _model(rng)
    # the float MatMul output also leaves the graph: its value must reach HBM, no fusion
    m.graph.output.append(helper.make_tensor_value_info("mm", TensorProto.FLOAT, [2, OUT]))
    assert _fused_count(m) == 0


def test_pass_does_not_match_a_non_integral_bias_or_a_weight_zero_point(rng):
    m = _model(rng)
    for t in m.graph.initializer:
        if t.name == "bf":
            t.CopyFrom(_init("bf", numpy_helper.to_array(t) + np.float32(1e-3)))
    assert _fused_count(m) == 0
    m = _model(rng)
    m.graph.initializer.append(_init("wf_z", np.full(OUT, 1, np.int8)))
    dq = next(n for n in m.graph.node if list(n.output) == ["wf"])
    dq.input.append("wf_z")
    assert _fused_count(m) == 0
