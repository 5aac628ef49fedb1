"""Lowering on unusual or malformed models: training-mode BatchNorm is refused, 1-D
Conv/pooling runs as a 2-D op over an H=1 view (checked against the corrected onnx
reference), malformed attributes and missing inputs are UnsupportedModelError naming
op and node, and an unexpected exception inside a handler is reported the same way.

(Over 300 lines on purpose: the malformed-model cases share one set of tiny graph builders.)
"""
from __future__ import annotations

import numpy as np
import onnx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from onnx import TensorProto, helper, numpy_helper

from frontend import lowering
from frontend.onnx_import import Node, UnsupportedModelError, load_onnx
from frontend.reference import reference_evaluator


def _vi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def _model(nodes, inputs, outputs=("y",), inits=(), opset=17):
    outs = [_vi(o, None) for o in outputs]
    g = helper.make_graph(nodes, "g", inputs, outs, [numpy_helper.from_array(v, k) for k, v in dict(inits).items()])
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def _session(fn):
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    if runtime().initialized:
        acl.finalize()
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        return fn()
    finally:
        acl.finalize()


def _run(model, feeds):
    from frontend.runner import ModelRunner

    def go():
        r = ModelRunner(load_onnx(model))
        r.prepare()
        return r.run(feeds).outputs
    return _session(go)


def _error(model, feeds=None) -> str:
    from frontend.runner import ModelRunner
    with pytest.raises(UnsupportedModelError) as e:
        _session(lambda: ModelRunner(load_onnx(model)).prepare())
    return str(e.value)


def _check_against_reference(model, feeds, tol=1e-5):
    got = _run(model, feeds)
    ref = reference_evaluator(model).run(None, feeds)
    for o, r in zip(model.graph.output, ref):
        g = got[o.name]
        assert g.shape == r.shape and g.dtype == r.dtype, o.name
        err = np.abs(g.astype(np.float64) - r).max() / max(np.abs(r).max(), 1e-30)
        assert err < tol, (o.name, err)


RNG = np.random.default_rng(11)


# -------------------------------------------------------------------------- BatchNormalization
def _bn_inits(c=3):
    return {"s": RNG.uniform(0.5, 1.5, c).astype(np.float32), "b": RNG.standard_normal(c).astype(np.float32),
            "m": RNG.standard_normal(c).astype(np.float32), "v": RNG.uniform(0.5, 1.5, c).astype(np.float32)}


@pytest.mark.parametrize("opset, attrs, outputs", [
    (9, {}, ["y", "rm", "rv"]),
    (9, {}, ["y", "rm", "rv", "sm", "sv"]),
    (13, {"momentum": 0.9}, ["y", "rm", "rv"]),
    (6, {"is_test": 0}, ["y"]),
])
def test_training_mode_batchnorm_is_refused(opset, attrs, outputs):
    """More than one output (opsets 7-13) or is_test=0 (opset 6) is training mode:
    refused before opset 14, naming op and node (opset 14+ training_mode=1 is lowered,
    below)."""
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], outputs, name="bn_train", **attrs)
    m = _model([node], [_vi("x", [2, 3, 4, 4])], outputs[:1], _bn_inits(), opset)
    msg = _error(m)
    assert "training-mode BatchNormalization is not supported" in msg and "bn_train" in msg


@pytest.mark.parametrize("opset, outputs", [(15, ["y"]), (15, ["y", "rm", "rv"]), (14, ["y"])])
def test_training_mode_batchnorm_matches_reference(opset, outputs):
    """training_mode=1 (opset >= 14): batch statistics, running_mean / running_var outputs."""
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], outputs, name="bn_train",
                            training_mode=1)
    m = _model([node], [_vi("x", [2, 3, 4, 4])], outputs, _bn_inits(), opset)
    _check_against_reference(m, {"x": RNG.standard_normal((2, 3, 4, 4)).astype(np.float32)})


@pytest.mark.parametrize("opset, attrs", [(15, {"training_mode": 0}), (15, {}), (9, {}), (13, {"momentum": 0.5}),
                                          (6, {"is_test": 1})])
def test_inference_batchnorm_matches_reference(opset, attrs):
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn", epsilon=1e-3, **attrs)
    m = _model([node], [_vi("x", [2, 3, 4, 5])], ["y"], _bn_inits(), opset)
    _check_against_reference(m, {"x": RNG.standard_normal((2, 3, 4, 5)).astype(np.float32)})


def test_batchnorm_per_activation_statistics_are_refused():
    """spatial=0 (opset < 9) statistics shaped [C, H, W] are not channel-wise: refused."""
    inits = {k: np.ones((3, 4, 4), np.float32) for k in "sbmv"}
    node = helper.make_node("BatchNormalization", ["x", "s", "b", "m", "v"], ["y"], name="bn_sp", spatial=0,
                            is_test=1)
    msg = _error(_model([node], [_vi("x", [2, 3, 4, 4])], ["y"], inits, 7))
    assert "BatchNormalization node 'bn_sp'" in msg and "[3]" in msg


# ------------------------------------------------------------------------------ 1-D Conv / pool
@pytest.mark.parametrize("attrs, w_shape", [
    ({}, (4, 3, 3)),
    ({"pads": [1, 2], "strides": [2]}, (4, 3, 3)),
    ({"dilations": [2], "pads": [2, 2]}, (4, 3, 3)),
    ({"group": 3}, (6, 1, 3)),
    ({"auto_pad": "SAME_UPPER", "strides": [2]}, (4, 3, 4)),
    ({"auto_pad": "SAME_LOWER"}, (4, 3, 4)),
    ({"auto_pad": "VALID", "kernel_shape": [3]}, (4, 3, 3)),
])
@pytest.mark.parametrize("bias", [False, True])
def test_conv1d_matches_reference(attrs, w_shape, bias):
    """Conv on [N, C, L] runs as a 2-D Conv over the [N, C, 1, L] view."""
    inits = {"w": RNG.standard_normal(w_shape).astype(np.float32)}
    ins = ["x", "w"]
    if bias:
        inits["b"] = RNG.standard_normal(w_shape[0]).astype(np.float32)
        ins.append("b")
    node = helper.make_node("Conv", ins, ["y"], name="c1", **attrs)
    m = _model([node], [_vi("x", [2, 3, 11])], ["y"], inits)
    _check_against_reference(m, {"x": RNG.standard_normal((2, 3, 11)).astype(np.float32)})


@pytest.mark.parametrize("op, attrs", [
    ("MaxPool", {"kernel_shape": [3]}),
    ("MaxPool", {"kernel_shape": [3], "strides": [2], "pads": [1, 1]}),
    ("MaxPool", {"kernel_shape": [2], "strides": [2], "ceil_mode": 1}),
    ("MaxPool", {"kernel_shape": [2], "dilations": [2]}),
    ("MaxPool", {"kernel_shape": [3], "strides": [2], "auto_pad": "SAME_UPPER"}),
    ("AveragePool", {"kernel_shape": [3]}),
    ("AveragePool", {"kernel_shape": [3], "strides": [2], "pads": [1, 1]}),
    ("AveragePool", {"kernel_shape": [3], "strides": [2], "pads": [1, 1], "count_include_pad": 1}),
    ("AveragePool", {"kernel_shape": [2], "strides": [2], "ceil_mode": 1}),
    ("GlobalAveragePool", {}),
])
def test_pool1d_matches_reference(op, attrs):
    node = helper.make_node(op, ["x"], ["y"], name="p1", **attrs)
    m = _model([node], [_vi("x", [2, 3, 11])], ["y"])
    _check_against_reference(m, {"x": RNG.standard_normal((2, 3, 11)).astype(np.float32)})


@pytest.mark.parametrize("op, ins, attrs, inits, frag", [
    ("Conv", ["x", "w"], {}, {"w": np.ones((2, 3, 1, 1, 1, 1), np.float32)}, "unsupported: 4-D Conv (node 'n3')"),
    ("MaxPool", ["x"], {"kernel_shape": [1, 1, 1, 1]}, {}, "unsupported: 4-D MaxPool (node 'n3')"),
    ("AveragePool", ["x"], {"kernel_shape": [1, 1, 1, 1]}, {}, "unsupported: 4-D AveragePool (node 'n3')"),
])
def test_4d_conv_and_pool_are_refused(op, ins, attrs, inits, frag):
    """1-D to 3-D run (issue 10); four spatial dims are refused with the op and node."""
    node = helper.make_node(op, ins, ["y"], name="n3", **attrs)
    assert frag in _error(_model([node], [_vi("x", [1, 3, 2, 2, 2, 2])], ["y"], inits))


# ------------------------------------------------------------------------- malformed attributes
def _x(shape=(2, 3, 4, 4)):
    return [_vi("x", list(shape))]


W = {"w": np.ones((2, 3, 3, 3), np.float32)}


@pytest.mark.parametrize("node, inputs, inits, opset, frag", [
    (helper.make_node("Unsqueeze", ["x"], ["y"], name="uq"), _x(), {}, 11, "Unsqueeze node 'uq'"),
    (helper.make_node("Unsqueeze", ["x"], ["y"], name="uq", axes=[0, 0]), _x(), {}, 11, "Unsqueeze node 'uq'"),
    (helper.make_node("Unsqueeze", ["x"], ["y"], name="uq", axes=[9]), _x(), {}, 11, "Unsqueeze node 'uq'"),
    (helper.make_node("Squeeze", ["x"], ["y"], name="sq", axes=[1]), _x(), {}, 11, "Squeeze node 'sq'"),
    (helper.make_node("Squeeze", ["x"], ["y"], name="sq", axes=[7]), _x(), {}, 11, "Squeeze node 'sq'"),
    (helper.make_node("Conv", ["x", "w"], ["y"], name="cv", strides=[1]), _x(), W, 17, "Conv node 'cv'"),
    (helper.make_node("Conv", ["x", "w"], ["y"], name="cv", pads=[1, 1]), _x(), W, 17, "Conv node 'cv'"),
    (helper.make_node("Conv", ["x", "w"], ["y"], name="cv", kernel_shape=[2, 2]), _x(), W, 17, "Conv node 'cv'"),
    (helper.make_node("Conv", ["x", "w"], ["y"], name="cv", auto_pad="BOGUS"), _x(), W, 17, "Conv node 'cv'"),
    (helper.make_node("Conv", ["x", ""], ["y"], name="cv"), _x(), {}, 17, "Conv node 'cv'"),
    (helper.make_node("Conv", ["x"], ["y"], name="cv"), _x(), {}, 17, "Conv node 'cv'"),
    (helper.make_node("Conv", ["x", "w"], ["y"], name="cv"), _x((2, 3, 4)), W, 17, "Conv node 'cv'"),
    (helper.make_node("MaxPool", ["x"], ["y"], name="mp"), _x(), {}, 17, "MaxPool node 'mp'"),
    (helper.make_node("MaxPool", ["x"], ["y"], name="mp", kernel_shape=[2, 2], strides=[1]), _x(), {}, 17,
     "MaxPool node 'mp'"),
    (helper.make_node("AveragePool", ["x"], ["y"], name="ap"), _x(), {}, 17, "AveragePool node 'ap'"),
    (helper.make_node("AveragePool", ["x"], ["y"], name="ap", kernel_shape=[2]), _x(), {}, 17,
     "AveragePool node 'ap'"),
    (helper.make_node("LRN", ["x"], ["y"], name="lrn"), _x(), {}, 17, "LRN node 'lrn'"),
    (helper.make_node("Concat", ["x", "x"], ["y"], name="cat"), _x(), {}, 17, "Concat node 'cat'"),
    (helper.make_node("Concat", ["x", "x"], ["y"], name="cat", axis=4), _x(), {}, 17, "Concat node 'cat'"),
    (helper.make_node("Cast", ["x"], ["y"], name="cast"), _x(), {}, 17, "Cast node 'cast'"),
    (helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=[0, 1]), _x(), {}, 17, "Transpose node 'tr'"),
    (helper.make_node("Transpose", ["x"], ["y"], name="tr", perm=[0, 1, 1, 2]), _x(), {}, 17, "Transpose node 'tr'"),
    (helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=4), _x(), {}, 17, "Softmax node 'sm'"),
    (helper.make_node("Softmax", ["x"], ["y"], name="sm", axis=-5), _x(), {}, 11, "Softmax node 'sm'"),
    (helper.make_node("Flatten", ["x"], ["y"], name="fl", axis=5), _x(), {}, 17, "Flatten node 'fl'"),
    (helper.make_node("Reshape", ["x", "s"], ["y"], name="rs"), _x(), {"s": np.array([-1, -1], np.int64)}, 17,
     "Reshape node 'rs'"),
    (helper.make_node("Reshape", ["x", "s"], ["y"], name="rs"), _x(), {"s": np.array([0, 0, 0, 0, 0], np.int64)},
     17, "Reshape node 'rs'"),
    (helper.make_node("Reshape", ["x", "s"], ["y"], name="rs"), _x(), {"s": np.array([5, -1], np.int64)}, 17,
     "Reshape node 'rs'"),
    (helper.make_node("ReduceSum", ["x", "a"], ["y"], name="rd"), _x(), {"a": np.array([4], np.int64)}, 17,
     "ReduceSum node 'rd'"),
    (helper.make_node("ReduceMean", ["x"], ["y"], name="rm", axes=[-5]), _x(), {}, 13, "ReduceMean node 'rm'"),
    (helper.make_node("Slice", ["x", "a", "b", "c", "d"], ["y"], name="sl"), _x(),
     {"a": np.array([0], np.int64), "b": np.array([2], np.int64), "c": np.array([1], np.int64),
      "d": np.array([0], np.int64)}, 17, "Slice node 'sl'"),
    (helper.make_node("Slice", ["x", "a", "b"], ["y"], name="sl"), _x(),
     {"a": np.array([0, 0], np.int64), "b": np.array([2], np.int64)}, 17, "Slice node 'sl'"),
    (helper.make_node("Slice", ["x", "a", "b", "c"], ["y"], name="sl"), _x(),
     {"a": np.array([0], np.int64), "b": np.array([2], np.int64), "c": np.array([4], np.int64)}, 17,
     "Slice node 'sl'"),
    (helper.make_node("Gather", ["x", "i"], ["y"], name="ga", axis=4), _x(), {"i": np.array([0], np.int64)}, 17,
     "Gather node 'ga'"),
    (helper.make_node("Gemm", ["x", "x"], ["y"], name="gm"), _x(), {}, 17, "Gemm node 'gm'"),
    (helper.make_node("BatchNormalization", ["x", "s", "b"], ["y"], name="bn"), _x(),
     {k: np.ones(3, np.float32) for k in "sb"}, 15, "BatchNormalization node 'bn'"),
    (helper.make_node("Relu", ["x", "x"], ["y"], name="r"), _x(), {}, 17, "Relu node 'r'"),
    (helper.make_node("MatMul", ["x"], ["y"], name="mm"), _x(), {}, 17, "MatMul node 'mm'"),
    (helper.make_node("Dropout", ["x", "ratio", "t"], ["y"], name="do"), _x(),
     {"ratio": np.array(0.5, np.float32), "t": np.array(True)}, 13, "Dropout node 'do'"),
    (helper.make_node("Dropout", ["x"], ["y"], name="do", is_test=0), _x(), {}, 6, "Dropout node 'do'"),
    (helper.make_node("Sum", ["x", "", "x"], ["y"], name="su"), _x(), {}, 13, "Sum node 'su'"),
    (helper.make_node("Add", ["x", "c"], ["y"], name="ad"), _x(), {"c": np.ones(3, np.float32)}, 13,
     "Add node 'ad': input shapes"),
    (helper.make_node("Expand", ["x", "s"], ["y"], name="ex"), _x(), {"s": np.ones((2, 2), np.int64)}, 13,
     "Expand node 'ex'"),
    (helper.make_node("Clip", ["x", "lo"], ["y"], name="cl"), _x(), {"lo": np.zeros(2, np.float32)}, 13,
     "Clip node 'cl'"),
    (helper.make_node("Gather", ["x", "i"], ["y"], name="ga", axis=1), _x(), {"i": np.array([3], np.int64)}, 13,
     "Gather node 'ga': constant indices"),
    (helper.make_node("LayerNormalization", ["x", "s"], ["y"], name="ln", epsilon=[1.0, 2.0]), _x(),
     {"s": np.ones(4, np.float32)}, 17, "LayerNormalization node 'ln'"),
    (helper.make_node("LayerNormalization", ["x", ""], ["y"], name="ln"), _x(), {}, 17,
     "LayerNormalization node 'ln': required input 1"),
])
def test_malformed_models_name_op_and_node(node, inputs, inits, opset, frag):
    """Missing/out-of-range/ill-formed attributes and missing inputs: one
    UnsupportedModelError naming op and node (never KeyError/TypeError/IndexError)."""
    msg = _error(_model([node], inputs, ["y"], inits, opset))
    assert frag in msg, msg


def test_unsqueeze_without_axes_says_so():
    msg = _error(_model([helper.make_node("Unsqueeze", ["x"], ["y"], name="uq")], _x(), ["y"], {}, 11))
    assert msg.startswith("Unsqueeze node 'uq'") and "axes" in msg


def test_unexpected_handler_exception_becomes_unsupported(monkeypatch):
    """The last line of defence: a bug inside a handler (here an IndexError) is reported
    as UnsupportedModelError naming op, node, exception type and where it was raised."""
    def broken(ctx, node, ins):
        return [][0]
    monkeypatch.setitem(lowering.HANDLERS, "Relu", broken)
    msg = _error(_model([helper.make_node("Relu", ["x"], ["y"], name="r0")], _x(), ["y"]))
    assert msg.startswith("Relu node 'r0': ") and "IndexError" in msg and "list index out of range" in msg
    assert "test_lowering_robustness.py" in msg


def test_malformed_attention_like_matmul_does_not_break_loading():
    """Attention fusion skips MatMul/Div/Add nodes with a wrong number of inputs;
    lowering then reports them."""
    nodes = [helper.make_node("MatMul", ["q", "k", "k"], ["s"], name="mm3"), helper.make_node("Div", ["s"], ["d"]),
             helper.make_node("Softmax", ["d"], ["p"]), helper.make_node("MatMul", ["p", "q"], ["y"])]
    m = _model(nodes, [_vi("q", [1, 2, 4, 4]), _vi("k", [1, 2, 4, 4])], ["y"])
    g = load_onnx(m)
    assert [n.op_type for n in g.nodes] == ["MatMul", "Div", "Softmax", "MatMul"]
    assert "MatMul node 'mm3'" in _error(m)


# ------------------------------------------------------------------------------------ Sum alpha
@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float16])
def test_sum_of_three_matches_numpy(dtype):
    """Sum lowers to a chain of aclnnAdd with an alpha of the operands' kind (INT64 1
    for integers: aclnnAdd refuses a FLOAT alpha for integer tensors)."""
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(dtype))
    node = helper.make_node("Sum", ["a", "b", "c"], ["y"], name="s3")
    m = _model([node], [_vi("a", [2, 3], elem), _vi("b", [3], elem), _vi("c", [2, 1], elem)], ["y"])
    feeds = {k: RNG.integers(-50, 50, s).astype(dtype) for k, s in (("a", (2, 3)), ("b", (3,)), ("c", (2, 1)))}
    got = _run(m, feeds)["y"]
    want = feeds["a"] + feeds["b"] + feeds["c"]
    assert got.dtype == np.dtype(dtype)
    np.testing.assert_array_equal(got, want)


def test_lower_sum_passes_an_int64_alpha_for_integers(monkeypatch):
    import opsnn
    calls = []
    real = opsnn.aclnnAddGetWorkspaceSize

    def spy(a, b, alpha, out):
        calls.append(alpha)
        return real(a, b, alpha, out)

    class Ctx:
        def alloc(self, name, shape, dtype):
            t = opsnn.aclCreateTensor(shape, lowering.acl_dtype(dtype), None, 0, 2, shape, 0)
            return lowering.DTensor(name, 0, tuple(shape), np.dtype(dtype), t)

    monkeypatch.setattr(opsnn, "aclnnAddGetWorkspaceSize", spy)
    ctx = Ctx()
    a, b = ctx.alloc("a", (2,), np.int32), ctx.alloc("b", (2,), np.int32)
    _session(lambda: lowering.lower_sum(ctx, Node("Sum", "s", ["a", "b"], ["y"]), [a, b]))
    assert calls and calls[0].data_type == opsnn.aclDataType.ACL_INT64 and calls[0].to_python() == 1


OPS = sorted((set(lowering.HANDLERS) | set(lowering.OPSET_HANDLERS)) - {"FlashAttentionScore"})
ATTR_VALUES = st.sampled_from([0, 1, -1, 2, -7, 1.5, "SAME_UPPER", "x", [1], [1, 1], [0, 0, 0, 0], [-1, 3], [1.5],
                               [0, 1, 2, 3]])
ATTR_NAMES = st.sampled_from(["axis", "axes", "perm", "kernel_shape", "strides", "pads", "dilations", "group",
                              "auto_pad", "ceil_mode", "to", "size", "alpha", "transA", "keepdims", "epsilon",
                              "training_mode", "starts", "ends", "approximate", "min", "max"])
CONSTS = st.sampled_from([np.ones(3, np.float32), np.ones((2, 2, 2, 2), np.float32), np.array([0, -1], np.int64),
                          np.array([3], np.int64), np.array(2, np.int64), np.ones((1, 1), np.float32)])


@settings(max_examples=150, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(op=st.sampled_from(OPS), shape=st.lists(st.integers(1, 3), min_size=1, max_size=4),
       consts=st.lists(st.one_of(st.none(), CONSTS), max_size=4), attrs=st.dictionaries(ATTR_NAMES, ATTR_VALUES,
                                                                                        max_size=3),
       opset=st.sampled_from([9, 11, 13, 17]))
def test_any_malformed_node_is_an_unsupported_model_error(op, shape, consts, attrs, opset):
    """Whatever the attributes, constant inputs (or missing ones) and opset, preparing
    a one-node model either works or raises UnsupportedModelError naming the node."""
    inits = {f"c{i}": c for i, c in enumerate(consts) if c is not None}
    ins = ["x"] + [f"c{i}" if c is not None else "" for i, c in enumerate(consts)]
    node = helper.make_node(op, ins, ["y"], name="fz", **attrs)
    m = _model([node], [_vi("x", shape)], ["y"], inits, opset)
    from frontend.runner import ModelRunner
    try:
        _session(lambda: ModelRunner(load_onnx(m)).prepare())
    except UnsupportedModelError as e:
        assert "'fz'" in str(e), str(e)
