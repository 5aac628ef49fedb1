"""The numpy constant folds of ``frontend.onnx_import`` (shape-subgraph ops) give
exactly what ``onnx.reference`` gives: same dtype, shape and bits, on random cases."""
from __future__ import annotations

import numpy as np
import pytest
from onnx import helper

from frontend import onnx_import as oi


def _reference(node, values, opset):
    """The generic path of ``_fold_one``: the node through the reference evaluator."""
    saved = oi._fold_numpy
    oi._fold_numpy = lambda *a: None
    try:
        return oi._fold_one(node, values, opset)
    finally:
        oi._fold_numpy = saved


def _cases(rng):
    i64 = lambda *v: np.asarray(v, np.int64)  # noqa: E731
    x = rng.integers(-50, 50, size=(2, 3, 4)).astype(np.int64)
    f = rng.standard_normal((2, 3, 4)).astype(np.float32)
    yield helper.make_node("Unsqueeze", ["x", "a"], ["y"]), [x, i64(0, -1)], 13
    yield helper.make_node("Unsqueeze", ["x"], ["y"], axes=[1]), [f], 11
    yield helper.make_node("Reshape", ["x", "s"], ["y"]), [f, i64(0, -1)], 14
    yield helper.make_node("Reshape", ["x", "s"], ["y"]), [x, i64(4, 0, 2)], 14
    yield helper.make_node("Gather", ["x", "i"], ["y"], axis=1), [x, i64(2, -1)], 13
    yield helper.make_node("Gather", ["x", "i"], ["y"]), [i64(5, 6, 7), np.asarray(-2, np.int64)], 13
    yield helper.make_node("Concat", ["a", "b", "c"], ["y"], axis=0), [i64(1), i64(2, 3), i64(-1)], 13
    yield helper.make_node("Concat", ["a", "b"], ["y"], axis=-1), [f, f], 13
    yield helper.make_node("Slice", ["x", "s", "e"], ["y"]), [x, i64(1), i64(9223372036854775807)], 13
    yield helper.make_node("Slice", ["x", "s", "e", "a", "t"], ["y"]), [x, i64(-1, 0), i64(-100, 3), i64(2, -3), i64(-1, 2)], 13
    yield helper.make_node("Slice", ["x", "s", "e", "a"], ["y"]), [f, i64(1), i64(-1), i64(2)], 13
    for op in ("Mul", "Add", "Sub", "Equal"):
        yield helper.make_node(op, ["a", "b"], ["y"]), [x, x[:1, :, :1]], 13
        yield helper.make_node(op, ["a", "b"], ["y"]), [i64(3), np.asarray(-2, np.int64)], 13
    yield helper.make_node("Where", ["c", "a", "b"], ["y"]), [x > 0, x, -x], 13
    yield helper.make_node("Expand", ["x", "s"], ["y"]), [i64(1, 2, 3), i64(2, 1, 3)], 13
    yield helper.make_node("Expand", ["x", "s"], ["y"]), [x[:, :1], i64(1, 4)], 13


@pytest.mark.parametrize("seed", range(3))
def test_numpy_folds_equal_the_reference(seed):
    n = 0
    for node, values, opset in _cases(np.random.default_rng(seed)):
        fast = oi._fold_numpy(node.op_type, oi._attrs(node), values, opset)
        assert fast is not None, node.op_type
        ref = _reference(node, values, opset)[0]
        assert fast.dtype == ref.dtype and fast.shape == ref.shape, (node.op_type, fast.shape, ref.shape)
        assert fast.tobytes() == ref.tobytes(), node.op_type
        n += 1
    assert n > 20


def test_unhandled_cases_go_to_the_reference():
    i64 = np.asarray([1, 2], np.int64)
    assert oi._fold_numpy("Mul", {}, [i64.astype(np.float32)] * 2, 13) is None   # float: reference
    assert oi._fold_numpy("Slice", {}, [i64, i64[:1], i64[:1], i64[:1], np.zeros(1, np.int64)], 13) is None
    assert oi._fold_numpy("Reshape", {}, [i64, np.asarray([0, 0], np.int64)], 14) is None   # zero past the rank
