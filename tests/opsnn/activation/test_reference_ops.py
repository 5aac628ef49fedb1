"""Softmax and LRN against onnx.reference.ReferenceEvaluator on single-node models,
with the corrected classes of tests/reference_ops.py (DESIGN.md section 9)."""
import numpy as np
import pytest
from onnx import TensorProto, helper
from onnx.reference import ReferenceEvaluator

import opsnn
from opsnn.activation.golden import lrn_golden, softmax_2d_golden, softmax_golden
from tests.conftest import rel_err
from tests.reference_ops import CORRECTED_OPS, reference_evaluator

from ..pooling.helpers import run_op


def _model(op_type, x_shape, opset, **attrs):
    node = helper.make_node(op_type, ["X"], ["Y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])


def _eval(model, x, corrected=True):
    ev = reference_evaluator(model) if corrected else ReferenceEvaluator(model)
    return ev.run(None, {"X": x})[0]


# ------------------------------------------------------------------ LRN
def test_shipped_lrn_is_wrong_and_corrected_class_is_right(rng):
    """onnx#7805: the shipped LRN loops over the batch axis; with N=1 every channel
    but the first keeps a zero square sum, so y == x / bias^beta there."""
    x = rng.standard_normal((1, 6, 3, 3)).astype(np.float32)
    m = _model("LRN", list(x.shape), 13, size=3, alpha=0.5, beta=0.75, bias=1.0)
    ref = lrn_golden(x, 3, 0.5, 0.75, 1.0)
    assert rel_err(_eval(m, x, corrected=False), ref) > 1e-2
    assert rel_err(_eval(m, x), ref) < 1e-6


@pytest.mark.parametrize("shape,attrs", [
    ((2, 7, 4, 5), dict(size=5, alpha=0.3, beta=0.75, bias=2.0)),
    ((1, 16, 6, 6), dict(size=4, alpha=0.1, beta=0.5)),        # even size, default bias
    ((3, 5, 2, 2), dict(size=3)),                              # ONNX defaults alpha 1e-4, beta 0.75, bias 1
])
def test_lrn_matches_corrected_onnx(npu, rng, shape, attrs):
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    ref = _eval(_model("LRN", list(shape), 13, **attrs), x)
    a = {"alpha": 1e-4, "beta": 0.75, "bias": 1.0, **attrs}
    (y,), _ = run_op(npu, opsnn.aclnnLrnGetWorkspaceSize, opsnn.aclnnLrn, x,
                     (a["size"], a["alpha"], a["beta"], a["bias"]), [(shape, np.float32)])
    assert rel_err(y, ref) < 1e-5


# ------------------------------------------------------------------ Softmax
def test_opset9_softmax_of_1000_classes_is_not_all_ones(rng):
    """(1, 1000, 1, 1) at opset 9 (default axis 1) flattens to (1, 1000): a real
    distribution. The shipped evaluator takes the opset-13 default axis -1 (size 1)
    and returns all ones; the corrected class follows the opset-9 text."""
    x = rng.standard_normal((1, 1000, 1, 1)).astype(np.float32)
    m = _model("Softmax", list(x.shape), 9)                     # no axis attribute: default 1
    got = _eval(m, x)
    assert not np.allclose(got, 1.0)
    assert abs(float(got.sum()) - 1.0) < 1e-5
    assert rel_err(got, softmax_2d_golden(x, 1)) < 1e-6
    assert np.allclose(_eval(m, x, corrected=False), 1.0)      # the evaluator bug being corrected


@pytest.mark.parametrize("shape,axis", [((2, 3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), 2), ((4, 5), -1)])
def test_legacy_softmax_flattens_at_axis(rng, shape, axis):
    x = rng.standard_normal(shape).astype(np.float32)
    got = _eval(_model("Softmax", list(shape), 11, axis=axis), x)
    assert rel_err(got, softmax_2d_golden(x, axis)) < 1e-6


def test_corrected_classes_keep_opset13_meaning(rng):
    x = rng.standard_normal((2, 3, 4)).astype(np.float32)
    for axis in (0, 1, -1):
        m = _model("Softmax", list(x.shape), 13, axis=axis)
        assert rel_err(_eval(m, x), _eval(m, x, corrected=False)) < 1e-6
    m = _model("Softmax", list(x.shape), 13)                   # default axis -1
    assert rel_err(_eval(m, x), softmax_golden(x, -1)) < 1e-6
    assert {c.__name__ for c in CORRECTED_OPS} >= {"LRN", "Softmax"}


@pytest.mark.parametrize("shape,axis", [((3, 10), -1), ((2, 5, 6), 1), ((2, 3, 4, 5), 0)])
def test_softmax_matches_onnx_opset13(npu, rng, shape, axis):
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    ref = _eval(_model("Softmax", list(shape), 13, axis=axis), x)
    (y,), _ = run_op(npu, opsnn.aclnnSoftmaxGetWorkspaceSize, opsnn.aclnnSoftmax, x, (axis,),
                     [(shape, np.float32)])
    assert rel_err(y, ref) < 1e-5


def test_opset9_softmax_via_2d_view_matches_corrected_reference(npu, rng):
    """How a frontend runs an opset < 13 Softmax: softmax over dim 1 of the 2-D view."""
    x = rng.standard_normal((1, 1000, 1, 1)).astype(np.float32)
    ref = _eval(_model("Softmax", list(x.shape), 9), x)
    (y,), ex = run_op(npu, opsnn.aclnnSoftmaxGetWorkspaceSize, opsnn.aclnnSoftmax, x.reshape(1, 1000), (1,),
                      [((1, 1000), np.float32)])
    assert ex.info["strategy"] == "multi_pass"
    assert rel_err(y.reshape(x.shape), ref) < 1e-5
