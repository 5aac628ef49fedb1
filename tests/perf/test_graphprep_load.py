"""``frontend.onnx_import.tensor_array`` gives exactly what
``onnx.numpy_helper.to_array`` gives (dtype, shape, bytes, writeability): every
initializer and tensor attribute of every light model and MiniLM, tensors of every
plain dtype stored raw and in typed fields, and whole loads compared with onnx's
conversion."""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from frontend import onnx_import
from frontend.model_zoo import light_model_path, light_models, minilm_model_path
from frontend.onnx_import import load_onnx, tensor_array


def _models():
    out = [light_model_path(n + ".onnx") for n in light_models()]
    mp = minilm_model_path()
    return out + ([mp] if mp else [])


def _same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes() and \
        a.flags.writeable == b.flags.writeable


def _tensors(model: onnx.ModelProto):
    yield from model.graph.initializer
    for n in model.graph.node:
        for a in n.attribute:
            if a.type == onnx.AttributeProto.TENSOR:
                yield a.t


@pytest.mark.parametrize("path", _models(), ids=lambda p: str(p).rsplit("/", 1)[-1])
def test_model_tensors_convert_as_onnx_does(path):
    n = 0
    for t in _tensors(onnx.load(str(path))):
        assert _same(tensor_array(t), numpy_helper.to_array(t)), t.name
        n += 1
    assert n


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16, np.int64, np.int32, np.int16, np.int8,
                                   np.uint64, np.uint32, np.uint16, np.uint8, np.bool_])
@pytest.mark.parametrize("raw", [True, False])
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 3, 1)])
def test_plain_dtypes_raw_and_typed(dtype, raw, shape):
    a = (np.random.default_rng(0).standard_normal(shape) * 100).astype(dtype)
    t = helper.make_tensor("t", helper.np_dtype_to_tensor_dtype(np.dtype(dtype)), shape,
                           a.tobytes() if raw else a.reshape(-1).tolist(), raw=raw)
    got, ref = tensor_array(t), numpy_helper.to_array(t)
    assert _same(got, ref) and np.array_equal(got, a)


def test_other_types_go_through_onnx():
    s = helper.make_tensor("s", onnx.TensorProto.STRING, [2], [b"ab", b"c"])
    assert list(tensor_array(s)) == list(numpy_helper.to_array(s))
    for t in (helper.make_tensor("b16", onnx.TensorProto.BFLOAT16, [2], [1.0, 2.0]),
              helper.make_tensor("c", onnx.TensorProto.COMPLEX64, [1], [1.0 + 2.0j])):
        assert _same(tensor_array(t), numpy_helper.to_array(t))


def test_a_wrong_element_count_fails_as_onnx_fails():
    t = onnx.TensorProto(name="t", data_type=onnx.TensorProto.FLOAT, dims=[2, 2], float_data=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError):
        numpy_helper.to_array(t)
    with pytest.raises(ValueError):
        tensor_array(t)


@pytest.mark.parametrize("path", _models()[:3], ids=lambda p: str(p).rsplit("/", 1)[-1])
@pytest.mark.parametrize("meta_only", [False, True])
def test_whole_loads_same(path, meta_only, monkeypatch):
    proto = onnx.load(str(path))
    fast = load_onnx(proto, meta_only=meta_only)
    with monkeypatch.context() as m:
        m.setattr(onnx_import, "tensor_array", numpy_helper.to_array)
        ref = load_onnx(proto, meta_only=meta_only)
    assert sorted(fast.constants) == sorted(ref.constants)
    for k, v in fast.constants.items():
        v, w = np.asarray(v), np.asarray(ref.constants[k])
        assert _same(v, w) and v.strides == w.strides, k
    assert [(n.op_type, n.inputs, n.outputs, repr(n.attrs)) for n in fast.nodes] == \
        [(n.op_type, n.inputs, n.outputs, repr(n.attrs)) for n in ref.nodes]
