"""The onnx package's node test cases through the ONNX frontend (no regressions), the
node-test harness itself, static shape folding in load_onnx, and the lowering's error
messages for what it cannot run."""
from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from frontend import onnx_node_tests as nt
from frontend.onnx_import import UnsupportedModelError, load_onnx

DOC = Path(__file__).resolve().parents[2] / "docs" / "onnx_node_tests.md"


@pytest.fixture(scope="module")
def summary():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return nt.run_all(nt.OPS, "tiny")


def test_no_case_fails_that_is_not_a_known_failure(summary):
    new = nt.regressions(summary)
    assert not new, "\n".join(f"{r.name}: {r.status}: {r.reason}" for r in new)


def test_every_listed_op_passes_its_cases_but_the_known_failures(summary):
    assert set(summary) == set(nt.OPS)
    for op, s in summary.items():
        assert s.total >= 1 and s.passed >= 1, op
        failing = {r.name for r in s.results if not r.passed}
        assert failing <= set(nt.KNOWN_FAILURES), op
    # basic cases, by name
    passed = {r.name for s in summary.values() for r in s.results if r.passed}
    for name in ("test_matmul_2d", "test_gemm_default_no_bias", "test_add", "test_sub", "test_mul", "test_div",
                 "test_layer_normalization_4d_axis_negative_1", "test_softmax_axis_1", "test_erf", "test_gelu_default_1",
                 "test_gather_0", "test_transpose_default", "test_reshape_extended_dims", "test_unsqueeze_axis_0",
                 "test_squeeze", "test_concat_3d_axis_1", "test_slice", "test_shape", "test_cast_FLOAT_to_FLOAT16",
                 "test_where_example", "test_equal", "test_expand_dim_changed", "test_reduce_sum_keepdims_example",
                 "test_reduce_mean_default_axes_keepdims_example", "test_pow", "test_sqrt", "test_clip",
                 "test_identity", "test_constant", "test_constantofshape_int_zeros"):
        assert name in passed, name


def test_known_failures_are_real_cases_with_reasons():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        names = {c.name for c in nt.collect()}
    stale = [k for k in nt.KNOWN_FAILURES if k not in names]
    assert not stale
    assert all(len(why) > 20 for why in nt.KNOWN_FAILURES.values())


def test_the_committed_table_is_current(summary):
    assert DOC.read_text() == nt.markdown(summary, "tiny"), \
        "regenerate: python -m frontend.onnx_node_tests --markdown docs/onnx_node_tests.md"


def test_main_prints_the_table(capsys):
    assert nt.main(["--ops", "Erf,Sqrt"]) == 0
    out = capsys.readouterr().out
    assert "onnx node tests" in out and "Erf" in out and "3 / 3 cases pass over 2 ops" in out


def test_main_unknown_op(capsys):
    assert nt.main(["--ops", "Erf,TfIdfVectorizer"]) == 2
    assert "unknown op(s) TfIdfVectorizer" in capsys.readouterr().out


def _case(node, inputs, outputs, name="test_custom", op=None, out_types=None):
    ins = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
           for n, a in zip(node.input, inputs)]
    outs = [helper.make_tensor_value_info(n, helper.np_dtype_to_tensor_dtype(a.dtype), a.shape)
            for n, a in zip(node.output, outputs)]
    m = helper.make_model(helper.make_graph([node], name, ins, outs), opset_imports=[helper.make_opsetid("", 17)])
    return nt.NodeCase(name, op or node.op_type, m, inputs, outputs, 1e-3, 1e-7)


def test_harness_reports_wrong_numbers_and_unsupported_ops():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    good = nt.run_case(_case(helper.make_node("Sqrt", ["x"], ["y"]), [x], [np.sqrt(x)]))
    assert good.passed, good.reason
    bad = nt.run_case(_case(helper.make_node("Sqrt", ["x"], ["y"]), [x], [np.sqrt(x) + 1]))
    assert bad.status == "numbers" and "elements off" in bad.reason
    wrong_dtype = nt.run_case(_case(helper.make_node("Sqrt", ["x"], ["y"]), [x], [np.sqrt(x).astype(np.float64)]))
    assert wrong_dtype.status == "numbers" and "dtype float32 instead of float64" in wrong_dtype.reason
    det = nt.run_case(_case(helper.make_node("Det", ["x"], ["y"], name="my_det"), [x], [np.tan(x)]))
    assert det.status == "unsupported" and "'Det'" in det.reason and "my_det" in det.reason


# ------------------------------------------------------------------------------ load_onnx folding
def _model(nodes, inputs, outputs, inits=(), opset=17):
    g = helper.make_graph(nodes, "g", inputs, outputs, list(inits))
    return helper.make_model(g, opset_imports=[helper.make_opsetid("", opset)])


def _vi(name, shape, elem=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, elem, shape)


def test_shape_of_a_runtime_tensor_folds_through_a_reshape_chain():
    """Transformer exports compute Reshape targets from Shape -> Gather -> Unsqueeze ->
    Concat: with a static input shape all of it folds, only MatMul/Reshape remain."""
    w = numpy_helper.from_array(np.ones((8, 8), np.float32), "w")
    nodes = [helper.make_node("MatMul", ["x", "w"], ["h"]),
             helper.make_node("Shape", ["h"], ["s"]),
             helper.make_node("Gather", ["s", "i0"], ["b"], axis=0),
             helper.make_node("Unsqueeze", ["b", "ax0"], ["b1"]),
             helper.make_node("Concat", ["b1", "rest"], ["shape"], axis=0),
             helper.make_node("Reshape", ["h", "shape"], ["y"])]
    inits = [w, numpy_helper.from_array(np.array(0, np.int64), "i0"),
             numpy_helper.from_array(np.array([0], np.int64), "ax0"),
             numpy_helper.from_array(np.array([-1, 2, 4], np.int64), "rest")]
    m = _model(nodes, [_vi("x", ["batch", 3, 8])], [_vi("y", None)], inits)
    g = load_onnx(m, overrides={"x": np.zeros((5, 3, 8), np.float32)})
    assert g.inputs["x"][0] == (5, 3, 8)
    assert [n.op_type for n in g.nodes] == ["MatMul", "Reshape"]
    assert list(g.constants["shape"]) == [5, -1, 2, 4]
    assert g.shapes["h"] == (5, 3, 8)


def test_dynamic_input_without_override_keeps_shape_nodes():
    nodes = [helper.make_node("Shape", ["x"], ["s"]), helper.make_node("ConstantOfShape", ["s"], ["y"])]
    m = _model(nodes, [_vi("x", ["n", 4])], [_vi("y", None)])
    g = load_onnx(m)
    assert [n.op_type for n in g.nodes] == ["Shape", "ConstantOfShape"]
    g2 = load_onnx(m, overrides={"x": np.zeros((3, 4), np.float32)})
    assert [n.op_type for n in g2.nodes] == ["Identity"]  # the constant output, produced from a constant
    assert g2.constants["y__const"].shape == (3, 4)


def test_shape_start_end_attributes():
    nodes = [helper.make_node("Shape", ["x"], ["y"], start=1, end=-1)]
    m = _model(nodes, [_vi("x", [2, 3, 4, 5])], [_vi("y", None, TensorProto.INT64)], opset=15)
    g = load_onnx(m)
    assert list(g.constants["y__const"]) == [3, 4]


def test_override_with_a_mismatched_shape_keeps_the_declared_one():
    m = _model([helper.make_node("Relu", ["x"], ["y"])], [_vi("x", [2, 3])], [_vi("y", [2, 3])])
    g = load_onnx(m, overrides={"x": np.zeros((4, 4), np.float32)})
    assert g.inputs["x"][0] == (2, 3)


# ----------------------------------------------------------------------------- lowering errors
def _prepare(model, feeds):
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from frontend.runner import ModelRunner
    if runtime().initialized:
        acl.finalize()
    acl.init(chip="tiny")
    acl.rt.set_device(0)
    try:
        ModelRunner(load_onnx(model, overrides=feeds)).prepare()
    finally:
        acl.finalize()


@pytest.mark.parametrize("nodes,inputs,feeds,inits,frag", [
    ([helper.make_node("Reshape", ["x", "s"], ["y"], name="rs")], [_vi("x", [2, 3]), _vi("s", [2], TensorProto.INT64)],
     {"x": np.zeros((2, 3), np.float32), "s": np.array([3, 2])}, [],
     "Reshape node 'rs': the target shape must be constant"),
    ([helper.make_node("Expand", ["x", "s"], ["y"], name="ex")], [_vi("x", [1, 3]), _vi("s", [2], TensorProto.INT64)],
     {"x": np.zeros((1, 3), np.float32), "s": np.array([2, 3])}, [],
     "Expand node 'ex': the target shape must be constant"),
    ([helper.make_node("Slice", ["x", "a", "b"], ["y"], name="sl")],
     [_vi("x", [4]), _vi("a", [1], TensorProto.INT64), _vi("b", [1], TensorProto.INT64)],
     {"x": np.zeros(4, np.float32), "a": np.array([0]), "b": np.array([2])}, [],
     "Slice node 'sl': runtime starts/ends/axes/steps are not supported"),
    ([helper.make_node("Gelu", ["x"], ["y"], name="g", approximate="fast")], [_vi("x", [4])],
     {"x": np.zeros(4, np.float32)}, [], "Gelu node 'g': approximate='fast' is not supported"),
    ([helper.make_node("Shape", ["x"], ["s"]), helper.make_node("ConstantOfShape", ["s"], ["y"], name="cos")],
     [_vi("x", ["n"])], {}, [], "input 'x' has a dynamic shape"),
    ([helper.make_node("Cast", ["x"], ["y"], name="c", to=TensorProto.STRING)], [_vi("x", [4])],
     {"x": np.zeros(4, np.float32)}, [], "Cast node 'c'"),
    ([helper.make_node("ReduceSum", ["x", "ax"], ["y"], name="rsum")],
     [_vi("x", [2, 3]), _vi("ax", [1], TensorProto.INT64)], {"x": np.zeros((2, 3), np.float32),
                                                            "ax": np.array([1])}, [],
     "ReduceSum node 'rsum': runtime axes are not supported"),
    ([helper.make_node("Det", ["x"], ["y"], name="t")], [_vi("x", [4, 4])], {"x": np.zeros((4, 4), np.float32)}, [],
     "op 'Det' (node 't') is not supported"),
])
def test_unsupported_constructs_name_op_and_node(nodes, inputs, feeds, inits, frag):
    m = _model(nodes, inputs, [_vi("y", None)], inits)
    with pytest.raises(UnsupportedModelError) as e:
        _prepare(m, feeds)
    assert frag in str(e.value)


def test_shape_of_a_dynamic_tensor_reaching_lowering_is_reported():
    """An op whose input shape stays unknown (a runtime Reshape target upstream) keeps
    its Shape node; lowering then says why it cannot fold it."""
    from frontend.lowering import lower_dynamic
    from frontend.onnx_import import Node
    with pytest.raises(UnsupportedModelError, match="Shape node 'sh': its input has a dynamic shape"):
        lower_dynamic(None, Node("Shape", "sh", ["x"], ["y"]), [])
