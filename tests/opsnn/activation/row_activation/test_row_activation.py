"""aclnnLogSoftmax and aclnnHardmax against float64 goldens on the tiny chip: one-
and multi-pass rows, many blocks, hypothesis over shapes/dims/dtypes/layouts, ties,
and one status per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import opsnn
from opsnn.activation.row_activation.golden import hardmax_golden, log_softmax_golden
from tests.opsnn.math.helpers import (FLOAT_NP, LAYOUTS, SETTINGS, api, check_close, expect_error, make_input,
                                      out_tensor, run, shapes)

GOLDEN = {"LogSoftmax": log_softmax_golden, "Hardmax": hardmax_golden}


@pytest.mark.parametrize("op", sorted(GOLDEN))
@pytest.mark.parametrize("shape,dim,strategy", [((40, 64), -1, "one_pass"), ((6, 2000), 1, "multi_pass"),
                                                ((30, 7, 5), 0, "one_pass")])
def test_strategies_and_many_blocks(npu, rng, op, shape, dim, strategy):
    x = rng.standard_normal(shape).astype(np.float32) * 3
    tx = npu.to_device(x)[1]
    tout, read = out_tensor(npu, shape, np.float32, False)
    ex = run(npu, *api(op), tx, dim, tout)
    assert ex.info["strategy"] == strategy and ex.kernels[0].spec.block_dim >= 2
    check_close(read(), GOLDEN[op](x, dim % len(shape)).reshape(shape), np.float32)


@SETTINGS
@given(op=st.sampled_from(sorted(GOLDEN)), shape=shapes(), dt=st.sampled_from(FLOAT_NP + [np.dtype(np.float64)]),
       layout=st.sampled_from(LAYOUTS), strided=st.booleans(), data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_row_property(npu, op, shape, dt, layout, strided, data, seed):
    rank = max(len(shape), 1)
    dim = data.draw(st.integers(-rank, rank - 1))
    x, tx = make_input(npu, np.random.default_rng(seed), shape, dt, layout)
    tout, read = out_tensor(npu, x.shape, dt, strided)
    run(npu, *api(op), tx, dim, tout)
    check_close(read(), GOLDEN[op](x, dim % rank).reshape(x.shape), dt)


def test_hardmax_takes_the_first_of_tied_maxima(npu):
    x = np.array([[1, 3, 3, 0], [2, 2, 2, 2]], np.float32)
    tout, read = out_tensor(npu, x.shape, np.float32, False)
    run(npu, *api("Hardmax"), npu.to_device(x)[1], 1, tout)
    np.testing.assert_array_equal(read(), [[0, 1, 0, 0], [1, 0, 0, 0]])


@pytest.mark.parametrize("op", sorted(GOLDEN))
def test_errors(npu, op):
    prep, _ = api(op)
    x = npu.empty((4, 5), np.float32)[1]
    name = f"aclnn{op}"
    expect_error(prep, (None, 1, x), 161001, name, "self is null")
    expect_error(prep, (x, 1, None), 161001, "out is null")
    expect_error(prep, (np.zeros(3), 1, x), 161002, "self must be an aclTensor")
    xi = npu.empty((4, 5), np.int32)[1]
    expect_error(prep, (xi, 1, xi), 161002, "self dtype ACL_INT32 not supported")
    expect_error(prep, (x, 1, npu.empty((4, 5), np.float16)[1]), 161002, "out dtype ACL_FLOAT16 not supported")
    expect_error(prep, (x, 1, npu.empty((5, 4), np.float32)[1]), 161002, "out shape [5, 4]")
    expect_error(prep, (x, 2, x), 161002, "dim 2 out of range [-2, 2)")
    expect_error(prep, (x, 1.0, x), 161002, "dim must be an integer")
    assert opsnn.functional.FUNCTIONS[{"LogSoftmax": "log_softmax", "Hardmax": "hardmax"}[op]].op_def.op_type == op
