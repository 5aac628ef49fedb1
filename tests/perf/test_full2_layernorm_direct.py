"""LayerNorm's fused body reads a float32 input in place and normalises straight into
a float32 output view (issue 17): a run gives the bytes of the float32 formula the body
evaluated before into fresh arrays (mean = sum / d, diff = x - mean, var = einsum / d,
rstd = 1 / sqrt(var + eps), diff * rstd * w [+ b]), with and without the bias, and
a float16 run stays within float16 rounding of it."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner


def _formula(x, w, b, eps):
    x = x.astype(np.float32).reshape(-1, x.shape[-1])
    d = x.shape[1]
    mean = x.sum(axis=1, dtype=np.float32) / np.float32(d)
    diff = x - mean[:, None]
    var = np.einsum("ij,ij->i", diff, diff, dtype=np.float32) / np.float32(d)
    rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
    y = diff * rstd[:, None]
    if w is not None:
        y *= w
    if b is not None:
        y += b
    return y


def _run(x, w, b, eps, dtype):
    elem = TensorProto.FLOAT if dtype == np.float32 else TensorProto.FLOAT16
    inits, names = [], ["x"]
    for name, v in (("w", w), ("b", b)):
        if v is not None:
            inits.append(numpy_helper.from_array(v.astype(dtype), name))
            names.append(name)
    node = helper.make_node("LayerNormalization", names, ["y"], axis=-1, epsilon=eps)
    g = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", elem, list(x.shape))],
                          [helper.make_tensor_value_info("y", elem, list(x.shape))], inits)
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
    r = ModelRunner(load_onnx(model), mode="graph", memory="planned")
    r.prepare()
    return r.run({"x": x.astype(dtype)}).outputs["y"]


@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("shape", [(4, 6, 40), (3, 96)])
def test_float32_same_bytes_as_formula(device, with_bias, shape):
    rng = np.random.default_rng(len(shape))
    x = rng.standard_normal(shape).astype(np.float32) * 3 + 1
    w = rng.standard_normal(shape[-1]).astype(np.float32)   # ONNX's scale is required
    b = rng.standard_normal(shape[-1]).astype(np.float32) if with_bias else None
    got = _run(x, w, b, 1e-5, np.float32)
    assert got.dtype == np.float32 and got.tobytes() == _formula(x, w, b, 1e-5).reshape(shape).tobytes()


def test_float16_close(device):
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 32)).astype(np.float16)
    w, b = rng.standard_normal(32).astype(np.float16), rng.standard_normal(32).astype(np.float16)
    got = _run(x, w, b, 1e-5, np.float16)
    want = _formula(x, w.astype(np.float32), b.astype(np.float32), 1e-5)
    assert got.dtype == np.float16
    np.testing.assert_allclose(got.astype(np.float32), want, rtol=2e-3, atol=2e-3)
