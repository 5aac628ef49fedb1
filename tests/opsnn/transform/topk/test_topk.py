"""aclnnTopk and aclnnArgMax / aclnnArgMin against per-row goldens on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.arg_max.golden import arg_golden
from opsnn.transform.topk.golden import topk_golden
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, expect_error, random_array

NUM = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64]


@pytest.mark.parametrize("dtype", NUM, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("largest", [True, False])
def test_topk_every_dtype_with_ties(npu, rng, dtype, largest):
    x = random_array(rng, (3, 11, 4), dtype)
    x[0, :3, 0] = x[0, 5, 0]
    (v, i), ex = run(npu, "Topk", x, 4, 1, largest, True, Out((3, 4, 4), dtype), Out((3, 4, 4), np.int64))
    gv, gi = topk_golden(x, 4, 1, largest)
    np.testing.assert_array_equal(v, gv)
    np.testing.assert_array_equal(i, gi)


def test_topk_many_tiles(npu, rng):
    x = rng.standard_normal((200, 300)).astype(np.float32)
    (v, i), ex = run(npu, "Topk", x, 5, -1, True, True, Out((200, 5), np.float32), Out((200, 5), np.int64),
                     layout="strided")
    gv, gi = topk_golden(x, 5, -1)
    np.testing.assert_array_equal(v, gv)
    np.testing.assert_array_equal(i, gi)
    assert many_tiles(ex) and dict(ex.kernels[-1].spec.args)["sort_passes"] == 5


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"), ("values_null", NULL, "valuesOut is null"),
    ("k", INVALID, "k 5 out of range [0, 4]"), ("dim", INVALID, "dim -3 out of range"),
    ("bool", INVALID, "self dtype ACL_BOOL not supported"), ("idx", INVALID, "indicesOut dtype ACL_INT32"),
])
def test_topk_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), k=2, dim=1, largest=True, sorted=True, v=t((3, 2)), i=t((3, 2), np.int64))
    args.update({"self_null": dict(self=None), "values_null": dict(v=None), "k": dict(k=5), "dim": dict(dim=-3),
                 "bool": dict(self=t((3, 4), np.bool_)), "idx": dict(i=t((3, 2), np.int32))}.get(case, {}))
    expect_error(opsnn.aclnnTopkGetWorkspaceSize, tuple(args.values()), code, "aclnnTopk", frag)


@pytest.mark.parametrize("dtype", NUM, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name,keep", [("ArgMax", False), ("ArgMin", True)])
def test_arg_every_dtype(npu, rng, dtype, name, keep):
    x = random_array(rng, (4, 7, 5), dtype)
    shape = (4, 1, 5) if keep else (4, 5)
    (got,), ex = run(npu, name, x, 1, keep, Out(shape, np.int64))
    np.testing.assert_array_equal(got, arg_golden(x, 1, keep, name == "ArgMax"))


def test_arg_many_tiles(npu, rng):
    x = rng.standard_normal((300, 64)).astype(np.float16)
    (got,), ex = run(npu, "ArgMax", x, 0, False, Out((64,), np.int64), layout="transposed")
    np.testing.assert_array_equal(got, arg_golden(x, 0))
    assert many_tiles(ex)


def test_arg_errors(npu):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    expect_error(opsnn.aclnnArgMaxGetWorkspaceSize, (None, 0, False, t((4,), np.int64)), NULL, "self is null")
    expect_error(opsnn.aclnnArgMaxGetWorkspaceSize, (t((3, 4)), 0, False, t((4,), np.float32)), INVALID,
                 "out dtype ACL_FLOAT not supported")
    expect_error(opsnn.aclnnArgMinGetWorkspaceSize, (t((0, 4)), 0, False, t((4,), np.int64)), INVALID, "is empty")
    expect_error(opsnn.aclnnArgMinGetWorkspaceSize, (t((3, 4)), 0, True, t((4,), np.int64)), INVALID,
                 "does not match expected [1, 4]")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3), data=st.data(), dtype=st.sampled_from(NUM))
def test_property(npu, shape, data, dtype):
    axis = data.draw(st.integers(0, len(shape) - 1))
    k = data.draw(st.integers(0, shape[axis]))
    largest = data.draw(st.booleans())
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))), shape, dtype)
    oshape = tuple(k if a == axis else d for a, d in enumerate(shape))
    (v, i), _ = run(npu, "Topk", x, k, axis, largest, True, Out(oshape, dtype), Out(oshape, np.int64))
    gv, gi = topk_golden(x, k, axis, largest)
    np.testing.assert_array_equal(v, gv)
    np.testing.assert_array_equal(i, gi)
    (am,), _ = run(npu, "ArgMax" if largest else "ArgMin", x, axis, False,
                   Out(tuple(d for a, d in enumerate(shape) if a != axis), np.int64))
    np.testing.assert_array_equal(am, arg_golden(x, axis, False, largest))
