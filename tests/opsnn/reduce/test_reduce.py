"""aclnnReduceSum / aclnnMean against float64 (or exact integer) references on the tiny
chip: dims, keepDim, dtype casts, empty cases, non-contiguous views, errors, properties."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn import aclDataType as T
from opsnn.base.dtypes import from_numpy_dtype
from opsnn.reduce.common.infershape import reduce_pattern
from opsnn.reduce.mean.golden import mean_golden
from opsnn.reduce.reduce_sum.golden import reduce_sum_golden
from tests.conftest import rel_err
from tests.opsnn.transform.helpers import BF16, FLOATS, TOL, device_tensor, empty, expect_error, random_array


def out_shape(shape, dim, keep):
    if not shape:
        return ()
    axes = {d % len(shape) for d in dim} if dim else set(range(len(shape)))
    return tuple((1 if i in axes else n) for i, n in enumerate(shape) if keep or i not in axes)


def run_reduce(npu, which, x, dim, keep, out_dtype, layout="contiguous"):
    tx = device_tensor(npu, x, layout)
    od = np.dtype(out_dtype)
    oshape = out_shape(x.shape, dim, keep)
    po, to = empty(npu, oshape, od)
    prep_fn, launch = ((opsnn.aclnnReduceSumGetWorkspaceSize, opsnn.aclnnReduceSum) if which == "sum" else
                       (opsnn.aclnnMeanGetWorkspaceSize, opsnn.aclnnMean))
    prep = prep_fn(tx, opsnn.aclCreateIntArray(dim), keep, from_numpy_dtype(od), to)
    npu.run(prep, launch)
    return npu.to_host(po, oshape, od), prep[1]


def golden(which, x, dim, keep, od):
    return reduce_sum_golden(x, dim, keep, od) if which == "sum" else mean_golden(x.astype(od), dim, keep)


def close(got, ref, scale, bound):
    """|got - ref| <= bound * scale elementwise, ``scale`` the same reduction of |x|
    (a sum's rounding error scales with the sum of magnitudes, not with the result)."""
    assert (np.abs(got.astype(np.float64) - ref) <= bound * scale + 1e-30).all()


def tol(x_dtype, od, n):
    """Relative bound: the output rounding, plus fp32 accumulation over n terms."""
    base = TOL.get(np.dtype(od), 0)
    if np.dtype(x_dtype) in TOL and np.dtype(x_dtype) != np.dtype(od):
        base = max(base, TOL[np.dtype(x_dtype)])
    return base + 1e-6 * max(1.0, np.log2(max(n, 1)))


@pytest.mark.parametrize("which", ["sum", "mean"])
@pytest.mark.parametrize("shape,dim,keep", [((4, 10), [1], False), ((4, 10), [0], True), ((3, 5, 7), [0, 2], False),
                                            ((3, 5, 7), [-1, -2], True), ((3, 5, 7), [], False), ((17,), [0], True),
                                            ((), [], False), ((), [0], True), ((2, 1, 3, 4), [1, 3], False)])
def test_reduce_float32(npu, rng, which, shape, dim, keep):
    x = (rng.standard_normal(shape) * 3).astype(np.float32)
    got, ex = run_reduce(npu, which, x, dim, keep, np.float32)
    ref = golden(which, x, dim, keep, np.float32)
    assert got.shape == ref.shape and rel_err(got, ref) < 1e-5


@pytest.mark.parametrize("which", ["sum", "mean"])
@pytest.mark.parametrize("x_dtype,od", [(np.float16, np.float16), (BF16, BF16), (np.float16, np.float32),
                                        (BF16, np.float32), (np.float32, np.float16)])
def test_reduce_half_types_and_casts(npu, rng, which, x_dtype, od):
    x = rng.standard_normal((6, 33)).astype(x_dtype)
    got, _ = run_reduce(npu, which, x, [1], False, od)
    ref = golden(which, x, [1], False, od)
    close(got, ref, golden(which, np.abs(x.astype(od).astype(np.float64)), [1], False, np.float64),
          tol(x_dtype, od, 33))


@pytest.mark.parametrize("x_dtype,od", [(np.int32, np.int32), (np.int64, np.int64), (np.int8, np.int32),
                                        (np.int8, np.int8), (np.uint8, np.int64), (np.bool_, np.int64),
                                        (np.int32, np.float32), (np.bool_, np.float16)])
def test_reduce_sum_integers_exact(npu, rng, x_dtype, od):
    x = random_array(rng, (5, 9, 4), x_dtype)
    got, _ = run_reduce(npu, "sum", x, [0, 2], False, od)
    ref = reduce_sum_golden(x, [0, 2], False, od)
    if np.dtype(od).kind in "iu":
        np.testing.assert_array_equal(got, ref)
    else:
        assert rel_err(got, ref) < TOL[np.dtype(od)]


def test_reduce_sum_int32_wraps_like_the_hardware(npu):
    x = np.full((4,), 2**30, np.int32)
    got, _ = run_reduce(npu, "sum", x, [0], False, np.int32)
    assert got == np.int32(0)  # 2**32 wraps to 0 in a 32-bit accumulator


def test_reduce_many_tiles_and_pattern(npu, rng):
    x = rng.standard_normal((40, 50, 3)).astype(np.float32)
    got, ex = run_reduce(npu, "sum", x, [1], False, np.float32)
    assert rel_err(got, reduce_sum_golden(x, [1], False, np.float32)) < 1e-5
    assert ex.info["pattern"] == "ARA" and ex.info["merged_shape"] == [40, 50, 3]
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and spec.args["pattern"] == "ARA" and spec.args["tiling"]["total_units"] == x.size


def test_reduce_pattern_merges_adjacent_axes():
    assert reduce_pattern((2, 3, 4, 5), [2, 3]) == ("AR", [6, 20])
    assert reduce_pattern((2, 3, 4, 5), [0, 1]) == ("RA", [6, 20])
    assert reduce_pattern((2, 1, 4, 5), [0, 2]) == ("RA", [8, 5])
    assert reduce_pattern((1, 1), [0]) == ("A", [1])


@pytest.mark.parametrize("which", ["sum", "mean"])
@pytest.mark.parametrize("layout", ["strided", "transposed"])
def test_reduce_non_contiguous(npu, rng, which, layout):
    x = rng.standard_normal((6, 7, 9)).astype(np.float32)
    got, _ = run_reduce(npu, which, x, [0, 2], True, np.float32, layout)
    assert rel_err(got, golden(which, x, [0, 2], True, np.float32)) < 1e-5


def test_empty_reduction_fills_zero_or_nan(npu):
    x = np.zeros((3, 0), np.float32)
    s, ex = run_reduce(npu, "sum", x, [1], False, np.float32)
    m, _ = run_reduce(npu, "mean", x, [1], False, np.float32)
    np.testing.assert_array_equal(s, np.zeros(3, np.float32))
    assert np.isnan(m).all() and ex.info["strategy"] == "fill"


def test_empty_output_launches_nothing(npu):
    x = np.zeros((0, 4), np.float32)
    got, ex = run_reduce(npu, "sum", x, [1], False, np.float32)
    assert got.shape == (0,) and ex.kernels == [] and ex.info["strategy"] == "empty"


@pytest.mark.parametrize("which", ["sum", "mean"])
@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("dim_null", NULL, "dim is null"),
    ("out_null", NULL, "out is null"),
    ("self_numpy", INVALID, "self must be an aclTensor"),
    ("self_double", INVALID, "self dtype ACL_DOUBLE not supported"),
    ("dtype_bad", INVALID, "dtype 99 is not an aclDataType"),
    ("dtype_bool", INVALID, "dtype ACL_BOOL not supported"),
    ("float_to_int", None, None),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported; expected one of ACL_FLOAT"),
    ("dim_range", INVALID, "dim value 2 out of range [-2, 2) for a 2-D self"),
    ("dim_repeat", INVALID, "dim repeats axis 1"),
    ("dim_float", INVALID, "dim must hold integers, got 0.5"),
    ("dim_scalar", INVALID, "dim must be an aclIntArray, got int"),
    ("keep_str", INVALID, "keepDim must be a bool, got 'yes'"),
    ("out_shape", INVALID, "out shape [3, 1] does not match expected [3]"),
])
def test_reduce_errors(npu, which, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), dim=[1], keep=False, dtype=T.ACL_FLOAT, out=t((3,)))
    if case == "float_to_int":
        # Mean refuses an integer dtype outright; ReduceSum refuses float -> integer
        args.update(dtype=T.ACL_INT32, out=t((3,), np.int32))
        code = INVALID
        frag = ("dtype ACL_INT32 not supported" if which == "mean" else
                "self dtype ACL_FLOAT cannot be reduced into integer dtype ACL_INT32")
    args.update({
        "self_null": dict(self=None), "dim_null": dict(dim=None), "out_null": dict(out=None),
        "self_numpy": dict(self=np.zeros((3, 4))), "self_double": dict(self=t((3, 4), np.float64)),
        "dtype_bad": dict(dtype=99), "dtype_bool": dict(dtype=T.ACL_BOOL),
        "out_dtype": dict(out=t((3,), np.float16)), "dim_range": dict(dim=[2]), "dim_repeat": dict(dim=[1, -1]),
        "dim_float": dict(dim=[0.5]), "dim_scalar": dict(dim=1), "keep_str": dict(keep="yes"),
        "out_shape": dict(out=t((3, 1))),
    }.get(case, {}))
    prep = opsnn.aclnnReduceSumGetWorkspaceSize if which == "sum" else opsnn.aclnnMeanGetWorkspaceSize
    name = "aclnnReduceSum" if which == "sum" else "aclnnMean"
    expect_error(prep, tuple(args.values()), code, name, frag)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 20), min_size=0, max_size=4), data=st.data(),
       which=st.sampled_from(["sum", "mean"]), keep=st.booleans(),
       layout=st.sampled_from(["contiguous", "strided", "transposed"]))
def test_reduce_property(npu, shape, data, which, keep, layout):
    shape = tuple(shape)
    rank = max(len(shape), 1)
    dim = data.draw(st.lists(st.integers(-rank, rank - 1), max_size=rank, unique_by=lambda d: d % rank))
    types = ([np.float32, np.float16, BF16] if which == "mean" else
             [np.float32, np.float16, BF16, np.int32, np.int8, np.bool_])
    x_dtype = np.dtype(data.draw(st.sampled_from(types)))
    od = x_dtype if x_dtype in FLOATS else np.dtype(data.draw(st.sampled_from([np.int32, np.int64, np.float32])))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    x = random_array(rng, shape, x_dtype, scale=2.0)
    got, _ = run_reduce(npu, which, x, dim, keep, od, layout)
    ref = golden(which, x, dim, keep, od)
    assert got.shape == ref.shape
    if od.kind in "iu":
        np.testing.assert_array_equal(got, ref)
    else:
        assert not np.isnan(got.astype(np.float32)).any()
        close(got, ref, golden(which, np.abs(x.astype(od).astype(np.float64)), dim, keep, np.float64),
              tol(x_dtype, od, x.size))
