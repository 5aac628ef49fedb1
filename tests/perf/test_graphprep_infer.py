"""The direct shape rules of ``frontend.onnx_infer.fast_output_shape`` give exactly
what onnx's shape inference gives: on every node of every light model and MiniLM
(whole loads compared with the rules on and off) and on random nodes, including
ones the rules must leave to onnx."""
from __future__ import annotations

import itertools
import random

import numpy as np
import onnx
import pytest
from onnx import helper, numpy_helper

from frontend import onnx_infer
from frontend.model_zoo import light_model_path, light_models, minilm_model_path
from frontend.onnx_import import load_onnx


def _onnx_only(monkeypatch):
    monkeypatch.setattr(onnx_infer, "fast_output_shape", lambda *a: None)


def _models():
    out = [light_model_path(n + ".onnx") for n in light_models()]
    mp = minilm_model_path()
    return out + ([mp] if mp else [])


@pytest.mark.parametrize("path", _models(), ids=lambda p: str(p).rsplit("/", 1)[-1])
def test_whole_models_same_shapes(path, monkeypatch):
    proto = onnx.load(str(path))
    fast = load_onnx(proto, meta_only=True, fuse_attention=False)
    with monkeypatch.context() as m:
        _onnx_only(m)
        ref = load_onnx(proto, meta_only=True, fuse_attention=False)
    assert fast.shapes == ref.shapes
    assert [(n.op_type, n.inputs, n.outputs) for n in fast.nodes] == [(n.op_type, n.inputs, n.outputs)
                                                                        for n in ref.nodes]


def _reference(node, ins, opset, consts=None):
    """onnx's answer for one node: {output: (shape or None, dtype or None)}, or None
    when inference raises. ``consts``: name -> array, handed over by type and value."""
    types = {name: onnx_infer._type_proto(helper.np_dtype_to_tensor_dtype(np.dtype(dt)), shape)
             for name, (shape, dt) in ins.items()}
    data = {}
    for name, a in (consts or {}).items():
        types[name] = onnx_infer._type_proto(helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
        data[name] = numpy_helper.from_array(a, name)
    try:
        out = onnx.shape_inference.infer_node_outputs(onnx_infer.schema_at(node.op_type, opset), node, types, data,
                                                      opset_imports=onnx_infer._opsets(opset))
    except Exception:  # noqa: BLE001 - an inference failure is an answer too
        return None
    res = {}
    for name, tp in out.items():
        tt = tp.tensor_type
        dims = tuple(d.dim_value if d.HasField("dim_value") else -1 for d in tt.shape.dim) \
            if tt.HasField("shape") else None
        res[name] = (dims if onnx_infer.is_static(dims) else None,
                     onnx_infer.elem_dtype(tt.elem_type) if tt.elem_type else None)
    return res


def _random_case(rng: random.Random):
    """(node, {input: (shape, dtype)}, opset) of a kind the fast rules know, with
    random (sometimes invalid) shapes, dtypes and attributes."""
    dt = rng.choice([np.float32] * 4 + [np.float16, np.float64, np.int64])
    opset = rng.choice([7, 9, 11, 13, 17])
    rank = rng.randint(1, 4)
    shape = tuple(rng.randint(1, 5) for _ in range(rank))
    op = rng.choice(["Relu", "Sigmoid", "Erf", "Add", "Mul", "Div", "Sum", "BatchNormalization", "Concat",
                     "MatMul", "Conv"])
    if op in ("Relu", "Sigmoid", "Erf"):
        return helper.make_node(op, ["x"], ["y"]), {"x": (shape, dt)}, opset
    if op in ("Add", "Mul", "Div", "Sum"):
        other = tuple(rng.choice([d, 1, d + 1]) for d in shape[rng.randint(0, rank - 1):])
        ins = {"x": (shape, dt), "z": (other, rng.choice([dt, dt, np.float16]))}
        if rng.random() < 0.5:
            ins = dict(reversed(list(ins.items())))
        return helper.make_node(op, list(ins), ["y"]), ins, opset
    if op == "BatchNormalization":
        c = shape[1] if rank > 1 else 1
        stat = (rng.choice([c, c, c + 1]),)
        ins = {"x": (shape, dt), **{k: (stat, dt) for k in ("s", "b", "m", "v")}}
        return helper.make_node(op, list(ins), ["y"], epsilon=1e-5), ins, opset
    if op == "Concat":
        axis = rng.randint(-rank - 1, rank)
        ins = {}
        for k in range(rng.randint(1, 3)):
            s = list(shape)
            if -rank <= axis < rank:
                s[axis] = rng.randint(1, 4)
            if rng.random() < 0.1:
                s[0] += 1
            ins[f"x{k}"] = (tuple(s), dt)
        return helper.make_node(op, list(ins), ["y"], axis=axis), ins, opset
    if op == "MatMul":
        k = rng.randint(1, 4)
        a = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2))) + (rng.randint(1, 4), k)
        b = tuple(rng.choice([1, 2]) for _ in range(rng.randint(0, 2))) + (rng.choice([k, k, k + 1]), 3)
        return helper.make_node(op, ["a", "b"], ["y"]), {"a": (a, dt), "b": (b, dt)}, opset
    sp = rng.randint(1, 3)
    group = rng.choice([1, 1, 2])
    cin = 2 * rng.randint(1, 2)
    x = (rng.randint(1, 2), cin) + tuple(rng.randint(1, 9) for _ in range(sp))
    w = (2 * rng.randint(1, 2), rng.choice([cin // group, cin])) + tuple(rng.randint(1, 4) for _ in range(sp))
    attrs = {"group": group}
    if rng.random() < 0.7:
        attrs["strides"] = [rng.randint(1, 3) for _ in range(sp)]
    if rng.random() < 0.5:
        attrs["dilations"] = [rng.randint(1, 2) for _ in range(sp)]
    if rng.random() < 0.7:
        attrs["pads"] = [rng.randint(0, 2) for _ in range(2 * sp)]
    if rng.random() < 0.2:
        attrs["auto_pad"] = rng.choice(["SAME_UPPER", "VALID", "NOTSET"])
        attrs.pop("pads", None) if attrs["auto_pad"] != "NOTSET" else None
    if rng.random() < 0.2:
        attrs["kernel_shape"] = list(w[2:]) if rng.random() < 0.5 else [1] * sp
    ins = {"x": (x, dt), "w": (w, dt)}
    if rng.random() < 0.5:
        ins["b"] = ((w[0],), dt)
    return helper.make_node(op, list(ins), ["y"], **attrs), ins, opset


def test_random_nodes_match_onnx():
    rng = random.Random(17)
    taken = 0
    for _ in range(1500):
        node, ins, opset = _random_case(rng)
        shapes = {k: s for k, (s, _) in ins.items()}
        dtypes = {k: np.dtype(d) for k, (_, d) in ins.items()}
        fast = onnx_infer.fast_output_shape(node, shapes, dtypes, {}, opset)
        if fast is None:
            continue
        taken += 1
        assert _reference(node, ins, opset) == {"y": (fast[0], fast[1])}, (node, ins, opset)
    assert taken > 600   # most random nodes are ones the rules take


def test_constant_inputs_are_read_by_shape():
    """A constant operand (an array in ``consts``) counts with its own shape and dtype."""
    node = helper.make_node("Add", ["x", "bias"], ["y"])
    got = onnx_infer.fast_output_shape(node, {"x": (2, 3, 4)}, {"x": np.dtype(np.float32)},
                                       {"bias": np.zeros((3, 1), np.float32)}, 13)
    assert got == ((2, 3, 4), np.dtype(np.float32))
    assert onnx_infer.fast_output_shape(node, {"x": (2, 3, 4)}, {"x": np.dtype(np.float32)},
                                        {"bias": np.zeros((3, 1), np.int64)}, 13) is None


@pytest.mark.parametrize("op, opset", list(itertools.product(["Erf", "Sum", "Add"], [6])))
def test_old_opsets_left_to_onnx(op, opset):
    """Before multidirectional broadcasting (Add < 7, Sum < 8) or before the op exists
    (Erf < 9) the rules decline."""
    node = helper.make_node(op, ["x"] if op == "Erf" else ["x", "z"], ["y"])
    shapes = {"x": (2, 3), "z": (2, 3)}
    dtypes = {k: np.dtype(np.float32) for k in shapes}
    assert onnx_infer.fast_output_shape(node, shapes, dtypes, {}, opset) is None


@pytest.mark.parametrize("attrs", [{"strides": 2}, {"group": [1]}, {"auto_pad": "SAME_UPPER"}])
def test_conv_attributes_of_another_form_left_to_onnx(attrs):
    node = helper.make_node("Conv", ["x", "w"], ["y"], **attrs)
    shapes = {"x": (1, 4, 8, 8), "w": (4, 4, 3, 3)}
    dtypes = {k: np.dtype(np.float32) for k in shapes}
    assert onnx_infer.fast_output_shape(node, shapes, dtypes, {}, 13) is None
