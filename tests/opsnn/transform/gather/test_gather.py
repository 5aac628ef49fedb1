"""aclnnGather / aclnnGatherNd and aclnnScatter / aclnnScatterNd against element-loop
goldens on the tiny chip: dtypes, negative indices, many tiles, statuses, the device
index check (507015 at synchronize), property tests."""
from __future__ import annotations

from acl_runtime import acl
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.gather.golden import gather_golden, gather_nd_golden
from opsnn.transform.scatter.golden import scatter_golden, scatter_nd_golden
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, empty, expect_error, random_array, upload

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_gather_every_dtype(npu, rng, dtype):
    x = random_array(rng, (4, 5, 6), dtype)
    idx = rng.integers(-5, 5, (4, 3, 6)).astype(np.int32)
    (got,), ex = run(npu, "Gather", x, 1, idx, Out(idx.shape, x.dtype))
    np.testing.assert_array_equal(got, gather_golden(x, 1, idx))


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_gather_nd_every_dtype(npu, rng, dtype):
    x = random_array(rng, (4, 5, 6), dtype)
    idx = np.stack([rng.integers(-4, 4, (3, 2)), rng.integers(0, 5, (3, 2))], -1).astype(np.int64)
    (got,), _ = run(npu, "GatherNd", x, idx, True, Out((3, 2, 6), x.dtype))
    np.testing.assert_array_equal(got, gather_nd_golden(x, idx))


def test_gather_many_tiles(npu, rng):
    x = rng.standard_normal((64, 100)).astype(np.float32)
    idx = rng.integers(0, 100, (64, 90)).astype(np.int64)
    (got,), ex = run(npu, "Gather", x, -1, idx, Out(idx.shape, x.dtype), layout="transposed")
    np.testing.assert_array_equal(got, gather_golden(x, 1, idx))
    assert many_tiles(ex)


def test_gather_out_of_range_fails_on_the_device(npu):
    _, x = upload(npu, np.zeros((3, 4), np.float32))
    _, i = upload(npu, np.array([[0, 4]], np.int64))
    po, o = empty(npu, (1, 2), np.float32)
    prep = opsnn.aclnnGatherGetWorkspaceSize(x, 1, i, o)
    assert prep[2] == 0
    assert opsnn.aclnnGather(0, prep[0], prep[1], 0) == 0
    assert acl.rt.synchronize_stream(0) == 507015
    assert "index[0, 1] = 4 is out of range [-4, 4)" in acl.get_recent_err_msg()


def test_gather_nd_negative_needs_support_flag(npu):
    _, x = upload(npu, np.zeros((3,), np.float32))
    _, i = upload(npu, np.array([[-1]], np.int64))
    po, o = empty(npu, (1,), np.float32)
    prep = opsnn.aclnnGatherNdGetWorkspaceSize(x, i, False, o)
    assert opsnn.aclnnGatherNd(0, prep[0], prep[1], 0) == 0
    assert acl.rt.synchronize_stream(0) == 507015


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"), ("index_null", NULL, "index is null"),
    ("index_dtype", INVALID, "index dtype ACL_FLOAT not supported"), ("dim", INVALID, "dim 3 out of range"),
    ("index_shape", INVALID, "must have self's rank"), ("out_shape", INVALID, "does not match expected [2, 2]"),
])
def test_gather_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), dim=1, index=t((2, 2), np.int64), out=t((2, 2)))
    args.update({"self_null": dict(self=None), "index_null": dict(index=None), "index_dtype": dict(index=t((2, 2))),
                 "dim": dict(dim=3), "index_shape": dict(index=t((4, 2), np.int64)),
                 "out_shape": dict(out=t((2, 3)))}.get(case, {}))
    expect_error(opsnn.aclnnGatherGetWorkspaceSize, tuple(args.values()), code, "aclnnGather", frag)


def test_gather_nd_errors(npu):
    x, o = npu.empty((3, 4), np.float32)[1], npu.empty((2,), np.float32)[1]
    expect_error(opsnn.aclnnGatherNdGetWorkspaceSize, (x, npu.empty((2, 3), np.int64)[1], True, o), INVALID,
                 "the last axis must be in [1, 2]")
    expect_error(opsnn.aclnnGatherNdGetWorkspaceSize, (x, None, True, o), NULL, "indices is null")


@pytest.mark.parametrize("reduce,name", [(0, "none"), (1, "add"), (2, "mul"), (3, "max"), (4, "min")])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32, np.int64, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_scatter_reductions(npu, rng, reduce, name, dtype):
    x = random_array(rng, (4, 6), dtype)
    src = random_array(rng, (3, 6), dtype)
    idx = np.stack([rng.permutation(4)[:3] for _ in range(6)], 1).astype(np.int64)
    if reduce:
        idx = rng.integers(-4, 4, (3, 5)).astype(np.int64)
    (got,), ex = run(npu, "Scatter", x, 0, idx, src, reduce, Out(x.shape, dtype))
    ref = scatter_golden(x, 0, idx, src, name)
    rtol = 1e-2 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(got.astype(np.float64), ref.astype(np.float64), rtol=rtol)
    assert ex.info["reduce"] == name


def test_scatter_nd_and_many_tiles(npu, rng):
    x = rng.standard_normal((50, 40, 8)).astype(np.float32)
    idx = np.array([[1, 2], [-3, 0], [10, 39]], np.int64)
    upd = rng.standard_normal((3, 8)).astype(np.float32)
    (got,), ex = run(npu, "ScatterNd", x, idx, upd, Out(x.shape, x.dtype))
    np.testing.assert_array_equal(got, scatter_nd_golden(x, idx, upd))
    assert many_tiles(ex)


@pytest.mark.parametrize("reduce,name", [(1, "add"), (2, "mul"), (3, "max"), (4, "min")])
def test_scatter_nd_reductions(npu, rng, reduce, name):
    """aclnnScatterNd's reduce (a simulator extension after CANN's parameters, for ONNX
    ScatterND's reduction): duplicate index tuples combine in index order."""
    x = rng.standard_normal((5, 4, 3)).astype(np.float32)
    idx = np.array([[1, 2], [-4, 2], [0, 0], [4, 3]], np.int64)   # [1, 2] twice (-4 = 1)
    upd = rng.standard_normal((4, 3)).astype(np.float32)
    (got,), ex = run(npu, "ScatterNd", x, idx, upd, Out(x.shape, x.dtype), reduce)
    ref = scatter_nd_golden(x.astype(np.float64), idx, upd.astype(np.float64), name)
    np.testing.assert_allclose(got, ref, rtol=1e-6)


def test_scatter_errors(npu):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    x, i, s = t((3, 4)), t((2, 4), np.int64), t((2, 4))
    expect_error(opsnn.aclnnScatterGetWorkspaceSize, (x, 0, i, s, 7, t((3, 4))), INVALID, "reduce 7 must be one of")
    expect_error(opsnn.aclnnScatterGetWorkspaceSize, (x, 0, i, t((2, 4), np.int32), 0, t((3, 4))), INVALID,
                 "src dtype ACL_INT32")
    expect_error(opsnn.aclnnScatterGetWorkspaceSize, (x, 0, t((2, 5), np.int64), s, 0, t((3, 4))), INVALID,
                 "must have self's rank and fit src")
    expect_error(opsnn.aclnnScatterGetWorkspaceSize, (x, 0, None, s, 0, t((3, 4))), NULL, "index is null")
    expect_error(opsnn.aclnnScatterNdGetWorkspaceSize, (x, t((2, 1), np.int64), t((2, 3)), t((3, 4))), INVALID,
                 "updates shape [2, 3] does not match expected [2, 4]")
    expect_error(opsnn.aclnnScatterNdGetWorkspaceSize, (x, t((2, 1), np.int64), t((2, 4)), t((3, 4)), 9), INVALID,
                 "reduce 9 must be one of")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 6), min_size=1, max_size=3), data=st.data(), dtype=st.sampled_from(ALL))
def test_gather_scatter_property(npu, shape, data, dtype):
    axis = data.draw(st.integers(0, len(shape) - 1))
    r = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    x = random_array(r, shape, dtype)
    ishape = tuple(r.integers(1, d + 1) for d in shape)
    idx = r.integers(-shape[axis], shape[axis], ishape).astype(np.int64)
    (got,), _ = run(npu, "Gather", x, axis, idx, Out(ishape, x.dtype))
    np.testing.assert_array_equal(got, gather_golden(x, axis, idx))
    (sc,), _ = run(npu, "Scatter", x, axis, idx, got, 0, Out(x.shape, x.dtype))
    np.testing.assert_array_equal(sc, x)   # writing back what was read changes nothing
