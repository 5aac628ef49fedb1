"""A YOLO-style detection head built with onnx.helper, random weights, on the tiny chip,
through ``npu-sim run`` (its own check against the corrected onnx reference evaluator,
DESIGN.md section 9) and through the frontend runner against that reference directly:

two strided Conv + Relu stages give two feature maps; a 1x1 head Conv on each predicts
(4 box, 1 objectness, 2 class) values per cell; the maps are flattened, Concatenated
over cells and Transposed to [1, cells, 7]; Split gives box / objectness / class; the
score is sigmoid(objectness) x sigmoid(class), and TopK picks the 10 best (values and
int64 indices, compared exactly for the indices). The boxes go out through Sigmoid.
"""
from __future__ import annotations

import re

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from frontend.cli import main
from tests.frontend.test_models_cnn import _G, run_on_tiny

RNG = np.random.default_rng(5)
OUTS = ("scores", "indices", "boxes")


def yolo_style_head():
    g = _G()
    f1 = g.op("Relu", [g.conv("x", 3, 8, 3, 2)])      # [1, 8, 8, 8]
    f2 = g.op("Relu", [g.conv(f1, 8, 8, 3, 2)])       # [1, 8, 4, 4]
    flat = []
    for f, cells in ((f1, 64), (f2, 16)):
        h = g.conv(f, 8, 7, 1)
        flat.append(g.op("Reshape", [h, g.const(np.array([1, 7, cells], np.int64))]))
    p = g.op("Transpose", [g.op("Concat", flat, axis=2)], perm=[0, 2, 1])   # [1, 80, 7]
    g.nodes.append(helper.make_node("Split", [p, g.const(np.array([4, 1, 2], np.int64))], ["box", "obj", "cls"],
                                    name="split", axis=2))
    score = g.op("Mul", [g.op("Sigmoid", ["obj"]), g.op("Sigmoid", ["cls"])])   # [1, 80, 2]
    score = g.op("Reshape", [score, g.const(np.array([1, 160], np.int64))])
    g.nodes.append(helper.make_node("TopK", [score, g.const(np.array([10], np.int64))], ["scores", "indices"],
                                    name="topk", axis=1))
    g.nodes.append(helper.make_node("Sigmoid", ["box"], ["boxes"], name="boxes"))
    graph = helper.make_graph(
        g.nodes, "yolo", [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 3, 16, 16])],
        [helper.make_tensor_value_info("scores", TensorProto.FLOAT, None),
         helper.make_tensor_value_info("indices", TensorProto.INT64, None),
         helper.make_tensor_value_info("boxes", TensorProto.FLOAT, None)], g.inits)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])


@pytest.mark.parametrize("mode", ["graph", "eager"])
def test_yolo_head_cli_check_passes(tmp_path, capsys, mode):
    path = tmp_path / "yolo.onnx"
    onnx.save(yolo_style_head(), path)
    np.savez(tmp_path / "x.npz", x=RNG.random((1, 3, 16, 16)).astype(np.float32))
    rc = main(["run", str(path), "--inputs", str(tmp_path / "x.npz"), "--no-progress", "--trace", "",
               "--chip", "tiny", "--mode", mode])
    out = capsys.readouterr().out
    assert rc == 0, out
    m = re.search(r"max rel err ([0-9.e+-]+) \(PASS at 1e-03\)", out)
    assert m and float(m.group(1)) < 1e-4, out


def test_yolo_head_runner_matches_corrected_reference():
    from frontend.reference import reference_evaluator
    model = yolo_style_head()
    x = RNG.random((1, 3, 16, 16)).astype(np.float32)
    got, _ = run_on_tiny(model, {"x": x})
    want = dict(zip(OUTS, reference_evaluator(model).run(list(OUTS), {"x": x})))
    np.testing.assert_array_equal(got["indices"], want["indices"])   # random scores: no ties
    for name in ("scores", "boxes"):
        np.testing.assert_allclose(got[name], want[name], rtol=1e-5, atol=1e-7)
    assert got["scores"].shape == (1, 10) and got["boxes"].shape == (1, 80, 4)
