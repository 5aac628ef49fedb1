"""aclnnArange, aclnnOneHot and aclnnCumsum(V2) against float64 / exact goldens on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.transform.arange.golden import arange_golden
from tests.conftest import rel_err
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, TOL, expect_error

T = opsnn.aclDataType
NUM = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64]


def sc(v):
    return opsnn.aclCreateScalar(v, T.ACL_INT64 if isinstance(v, int) else T.ACL_FLOAT)


def n_of(a, b, d):
    return max(int(np.ceil((b - a) / d)), 0)


@pytest.mark.parametrize("dtype", NUM, ids=lambda d: np.dtype(d).name)
def test_every_dtype(npu, dtype):
    a, b, d = (1, 20, 3) if np.dtype(dtype).kind in "iu" else (0.5, 7.25, 0.75)
    (got,), _ = run(npu, "Arange", sc(a), sc(b), sc(d), Out((n_of(a, b, d),), dtype))
    ref = arange_golden(a, b, d)
    assert rel_err(got, ref) <= TOL.get(np.dtype(dtype), 1e-12)


def test_long_negative_step(npu):
    (got,), ex = run(npu, "Arange", sc(5000), sc(-3000), sc(-1), Out((8000,), np.int32))
    np.testing.assert_array_equal(got, np.arange(5000, -3000, -1))
    assert many_tiles(ex)


@pytest.mark.parametrize("case,code,frag", [
    ("start_null", NULL, "start is null"), ("out_null", NULL, "out is null"),
    ("step0", INVALID, "must be non-zero"), ("sign", INVALID, "wrong sign"),
    ("length", INVALID, "does not match expected [3]"), ("bool", INVALID, "out dtype ACL_BOOL not supported"),
    ("not_scalar", INVALID, "end must be an aclScalar"),
])
def test_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(a=sc(0), b=sc(3), d=sc(1), out=t((3,)))
    args.update({"start_null": dict(a=None), "out_null": dict(out=None), "step0": dict(d=sc(0)),
                 "sign": dict(d=sc(-1)), "length": dict(out=t((4,))), "bool": dict(out=t((3,), np.bool_)),
                 "not_scalar": dict(b=3)}.get(case, {}))
    expect_error(opsnn.aclnnArangeGetWorkspaceSize, tuple(args.values()), code, "aclnnArange", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.integers(-50, 50), n=st.integers(1, 200), d=st.integers(-7, 7).filter(bool),
       dtype=st.sampled_from([np.int32, np.int64, np.float32, np.float64]))
def test_property(npu, a, n, d, dtype):
    b = a + n * d
    (got,), _ = run(npu, "Arange", sc(a), sc(b), sc(d), Out((n,), dtype))
    np.testing.assert_array_equal(got, np.arange(a, b, d).astype(dtype))


def _one_hot_ref(idx, k, on, off, axis):
    from opsnn.transform.one_hot.golden import one_hot_golden
    return one_hot_golden(idx, k, on, off, axis)


@pytest.mark.parametrize("odt", [np.float32, np.float16, BF16, np.int8, np.uint8, np.int32, np.int64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("idt", [np.int32, np.int64, np.uint8], ids=lambda d: np.dtype(d).name)
def test_one_hot_dtypes_and_out_of_range(npu, rng, odt, idt):
    idx = rng.integers(0, 7, (3, 4)).astype(idt)
    on, off = np.array([5], odt), np.array([2], odt)
    (got,), _ = run(npu, "OneHot", idx, 6, on, off, 1, Out((3, 6, 4), odt))
    np.testing.assert_array_equal(got, _one_hot_ref(idx, 6, on[0], off[0], 1))


def test_one_hot_many_tiles(npu, rng):
    idx = rng.integers(-1, 130, (2000,)).astype(np.int64)
    (got,), ex = run(npu, "OneHot", idx, 128, np.array([1], np.float16), np.array([0], np.float16), -1,
                     Out((2000, 128), np.float16))
    np.testing.assert_array_equal(got, _one_hot_ref(idx, 128, 1, 0, -1))
    assert many_tiles(ex)


@pytest.mark.parametrize("case,frag", [
    ("idx_dtype", "self dtype ACL_FLOAT not supported"), ("on_dtype", "onValue dtype ACL_INT32 not supported"),
    ("axis", "axis 3 out of range [-1, 2]"), ("classes", "numClasses -1 must be >= 0"),
    ("shape", "does not match expected [2, 3, 4]"),
])
def test_one_hot_errors(npu, case, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((2, 3), np.int64), k=4, on=t((1,)), off=t((1,)), axis=-1, out=t((2, 3, 4)))
    args.update({"idx_dtype": dict(self=t((2, 3))), "on_dtype": dict(on=t((1,), np.int32)), "axis": dict(axis=3),
                 "classes": dict(k=-1), "shape": dict(out=t((2, 4, 3)))}.get(case, {}))
    expect_error(opsnn.aclnnOneHotGetWorkspaceSize, tuple(args.values()), INVALID, "aclnnOneHot", frag)
    expect_error(opsnn.aclnnOneHotGetWorkspaceSize, (None,) + tuple(args.values())[1:], NULL, "self is null")


def _cumsum_ref(x, axis, exclusive=False, reverse=False):
    from opsnn.transform.cumsum.golden import cumsum_golden
    return cumsum_golden(x, axis, exclusive, reverse)


@pytest.mark.parametrize("dtype", NUM[:3] + [np.int8, np.uint8, np.int32, np.int64, np.float64],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("exclusive,reverse", [(False, False), (True, False), (False, True), (True, True)])
def test_cumsum_v2(npu, rng, dtype, exclusive, reverse):
    x = (rng.standard_normal((3, 17, 4)) * (1 if np.dtype(dtype).kind not in "iu" else 3)).astype(dtype)
    (got,), _ = run(npu, "CumsumV2", x, 1, exclusive, reverse, Out(x.shape, dtype))
    ref = _cumsum_ref(x, 1, exclusive, reverse)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(got, ref.astype(dtype))
    else:
        assert rel_err(got, ref) <= 4 * TOL.get(np.dtype(dtype), 1e-12)


def test_cumsum_dtype_and_many_tiles(npu, rng):
    x = rng.standard_normal((256, 64)).astype(np.float16)
    (got,), ex = run(npu, "Cumsum", x, 0, T.ACL_FLOAT, Out(x.shape, np.float32), layout="strided")
    assert rel_err(got, _cumsum_ref(x, 0)) <= 1e-5 and many_tiles(ex)


def test_cumsum_errors(npu):
    x, o = npu.empty((3, 4), np.float32)[1], npu.empty((3, 4), np.float16)[1]
    expect_error(opsnn.aclnnCumsumGetWorkspaceSize, (None, 0, T.ACL_FLOAT, o), NULL, "self is null")
    expect_error(opsnn.aclnnCumsumGetWorkspaceSize, (x, 2, T.ACL_FLOAT, o), INVALID, "dim 2 out of range")
    expect_error(opsnn.aclnnCumsumGetWorkspaceSize, (x, 0, T.ACL_FLOAT, o), INVALID, "out dtype ACL_FLOAT16")
    b = npu.empty((3,), np.bool_)[1]
    expect_error(opsnn.aclnnCumsumV2GetWorkspaceSize, (b, 0, False, False, b), INVALID, "self dtype ACL_BOOL")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=3), data=st.data(),
       dtype=st.sampled_from([np.float32, np.int32, np.int64, np.float64]))
def test_cumsum_property(npu, shape, data, dtype):
    axis = data.draw(st.integers(-len(shape), len(shape) - 1))
    ex, rv = data.draw(st.booleans()), data.draw(st.booleans())
    x = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))).integers(-9, 9, shape).astype(dtype)
    (got,), _ = run(npu, "CumsumV2", x, axis, ex, rv, Out(x.shape, dtype))
    np.testing.assert_allclose(got, _cumsum_ref(x, axis % len(shape), ex, rv), rtol=1e-6)
    assert from_numpy_dtype(got.dtype) is not None
