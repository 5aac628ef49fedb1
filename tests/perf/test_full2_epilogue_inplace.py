"""Cube bodies apply a fused "none" / "relu" epilogue in place on a float32 result that
already sits in the output (``opsnn.common.epilogue_inplace``, issue 17): a graph-mode
run gives the output bytes of the copying path (``IN_PLACE`` emptied: ``apply_epilogue``
then ``write_out``), for FusedMatmul (MatMul + bias [+ Relu], Gemm) and a grouped
FusedConvolution (the plain NCHW body) with and without Relu, and agrees with a float64
numpy evaluation of the model."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner
from opsnn.common import epilogue_inplace


def _matmul_model(rng, relu: bool, gemm: bool):
    w = rng.standard_normal((24, 40)).astype(np.float32)
    b = rng.standard_normal(40).astype(np.float32)
    if gemm:
        nodes = [helper.make_node("Gemm", ["x", "w", "b"], ["h"])]
    else:
        nodes = [helper.make_node("MatMul", ["x", "w"], ["m"]), helper.make_node("Add", ["m", "b"], ["h"])]
    nodes.append(helper.make_node("Relu" if relu else "Identity", ["h"], ["y"]))
    ref = lambda x: (lambda h: np.maximum(h, 0) if relu else h)(x.astype(np.float64) @ w + b)   # noqa: E731
    return _model(nodes, [w, b], ["w", "b"], [6, 24], [6, 40]), ref


def _conv_model(rng, relu: bool):
    w = rng.standard_normal((8, 2, 3, 3)).astype(np.float32)   # groups 2: the plain NCHW conv body
    b = rng.standard_normal(8).astype(np.float32)
    nodes = [helper.make_node("Conv", ["x", "w", "b"], ["h"], pads=[1, 1, 1, 1], group=2),
             helper.make_node("Relu" if relu else "Identity", ["h"], ["y"])]

    def ref(x):
        x = np.pad(x.astype(np.float64), ((0, 0), (0, 0), (1, 1), (1, 1)))
        out = np.zeros((1, 8, 5, 5))
        for o in range(8):
            g = o // 4
            for i in range(3):
                for j in range(3):
                    out[0, o] += np.tensordot(w[o, :, i, j], x[0, 2 * g:2 * g + 2, i:i + 5, j:j + 5], 1)
        out += b.reshape(1, 8, 1, 1)
        return np.maximum(out, 0) if relu else out
    return _model(nodes, [w, b], ["w", "b"], [1, 4, 5, 5], [1, 8, 5, 5]), ref


def _model(nodes, arrays, names, in_shape, out_shape):
    g = helper.make_graph(nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, in_shape)],
                          [helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)],
                          [numpy_helper.from_array(a, n) for a, n in zip(arrays, names)])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])


def _run(model, x):
    r = ModelRunner(load_onnx(model), mode="graph", memory="planned")
    r.prepare()
    return r.run({"x": x}).outputs["y"]


@pytest.mark.parametrize("kind", ["matmul", "gemm", "conv"])
@pytest.mark.parametrize("relu", [False, True])
def test_in_place_epilogue_same_bytes(device, monkeypatch, kind, relu):
    rng = np.random.default_rng(7)
    model, ref = _conv_model(rng, relu) if kind == "conv" else _matmul_model(rng, relu, kind == "gemm")
    x = rng.standard_normal([d.dim_value for d in model.graph.input[0].type.tensor_type.shape.dim]) \
        .astype(np.float32)
    used = []
    table = {k: (lambda f, k=k: lambda r: (used.append(k), f(r))[1])(f)
             for k, f in epilogue_inplace.IN_PLACE.items()}
    monkeypatch.setattr(epilogue_inplace, "IN_PLACE", table)
    got = _run(model, x)
    # the in-place path ran where an epilogue is fused (MatMul + Add is FusedMatmul with
    # activation "none"; a Gemm or a conv without Relu carries no epilogue)
    assert bool(used) == (relu or kind == "matmul")
    monkeypatch.setattr(epilogue_inplace, "IN_PLACE", {})
    want = _run(model, x)                              # the copying path
    assert got.dtype == want.dtype == np.float32 and got.tobytes() == want.tobytes()
    np.testing.assert_allclose(got, ref(x), rtol=1e-4, atol=1e-4)
