"""Pooling against onnx.reference.ReferenceEvaluator on single-node models.

ONNX attributes map onto the aclnn calls as the ONNX frontend maps them: pads stay
in ONNX order [top, left, bottom, right]; MaxPool -> aclnnMaxPool, AveragePool ->
aclnnAvgPool2d with 4 paddings, GlobalAveragePool -> aclnnAdaptiveAvgPool2d([1, 1]).
Cases avoid the evaluator's ceil-mode path that spreads extra padding over both
ends (``get_output_shape_explicit_padding`` with extra_pad >= 2), where it shifts
the windows.
"""
import numpy as np
import pytest
from onnx import TensorProto, helper

import opsnn
from tests.conftest import rel_err
from tests.reference_ops import reference_evaluator

from .helpers import run_op

ia = opsnn.aclCreateIntArray


def _model(op_type, x_shape, opset, **attrs):
    node = helper.make_node(op_type, ["X"], ["Y"], **attrs)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("X", TensorProto.FLOAT, x_shape)],
                              [helper.make_tensor_value_info("Y", TensorProto.FLOAT, None)])
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    return m


def _ref(op_type, x, opset=19, **attrs):
    return reference_evaluator(_model(op_type, list(x.shape), opset, **attrs)).run(None, {"X": x})[0]


@pytest.mark.parametrize("attrs", [
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1]),
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[0, 1, 1, 0]),
    dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1),
    dict(kernel_shape=[3, 2], strides=[1, 2], dilations=[2, 1], pads=[2, 0, 1, 1]),
])
def test_max_pool_matches_onnx(npu, rng, attrs):
    x = rng.standard_normal((1, 2, 9, 9)).astype(np.float32)
    ref = _ref("MaxPool", x, **attrs)
    (y,), _ = run_op(npu, opsnn.aclnnMaxPoolGetWorkspaceSize, opsnn.aclnnMaxPool, x,
                     (ia(attrs["kernel_shape"]), ia(attrs.get("strides", [])), 0, ia(attrs.get("pads", [])),
                      ia(attrs.get("dilations", [])), attrs.get("ceil_mode", 0)), [(ref.shape, np.float32)])
    np.testing.assert_array_equal(y, ref)


@pytest.mark.parametrize("attrs", [
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=0),
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1], count_include_pad=1),
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[0, 1, 1, 0], count_include_pad=1),
    dict(kernel_shape=[2, 2], strides=[2, 2], ceil_mode=1, count_include_pad=0),
    dict(kernel_shape=[3, 3], strides=[2, 2], pads=[1, 0, 0, 1], ceil_mode=1, count_include_pad=1),
    dict(kernel_shape=[2, 3], strides=[1, 1]),
])
def test_average_pool_matches_onnx(npu, rng, attrs):
    x = rng.standard_normal((1, 2, 9, 8)).astype(np.float32)
    ref = _ref("AveragePool", x, **attrs)
    p = attrs.get("pads", [0, 0, 0, 0])
    (y,), _ = run_op(npu, opsnn.aclnnAvgPool2dGetWorkspaceSize, opsnn.aclnnAvgPool2d, x,
                     (ia(attrs["kernel_shape"]), ia(attrs["strides"]), ia(p), bool(attrs.get("ceil_mode", 0)),
                      bool(attrs.get("count_include_pad", 0)), 0, 0), [(ref.shape, np.float32)])
    assert rel_err(y, ref) < 1e-5


@pytest.mark.parametrize("shape", [(1, 8, 7, 7), (2, 3, 5, 11)])
def test_global_average_pool_matches_onnx(npu, rng, shape):
    x = rng.standard_normal(shape).astype(np.float32)
    ref = _ref("GlobalAveragePool", x)
    (y,), _ = run_op(npu, opsnn.aclnnAdaptiveAvgPool2dGetWorkspaceSize, opsnn.aclnnAdaptiveAvgPool2d, x,
                     (ia([1, 1]),), [(ref.shape, np.float32)])
    assert rel_err(y, ref) < 1e-5
