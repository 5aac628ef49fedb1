"""aclnnTriu / aclnnTril against the index-mask golden on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.triangular.golden import triangular_golden
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, expect_error, random_array

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name,k", [("Triu", 0), ("Triu", -2), ("Tril", 1), ("Tril", 9)])
def test_every_dtype(npu, rng, dtype, name, k):
    x = random_array(rng, (2, 5, 7), dtype)
    (got,), ex = run(npu, name, x, k, Out(x.shape, x.dtype))
    np.testing.assert_array_equal(got, triangular_golden(x, name == "Triu", k))
    assert ex.info["diagonal"] == k


def test_many_tiles(npu, rng):
    x = rng.standard_normal((3, 96, 80)).astype(np.float32)
    (got,), ex = run(npu, "Tril", x, -3, Out(x.shape, x.dtype), layout="transposed")
    np.testing.assert_array_equal(got, triangular_golden(x, False, -3))
    assert many_tiles(ex)


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"), ("diag_null", NULL, "diagonal is null"), ("out_null", NULL, "out is null"),
    ("rank", INVALID, "self must be 2-D to 8-D"), ("diag_float", INVALID, "diagonal must be an integer"),
    ("dtype", INVALID, "out dtype ACL_INT32 not supported"),
])
def test_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), k=0, out=t((3, 4)))
    args.update({"self_null": dict(self=None), "diag_null": dict(k=None), "out_null": dict(out=None),
                 "rank": dict(self=t((4,)), out=t((4,))), "diag_float": dict(k=0.5),
                 "dtype": dict(out=t((3, 4), np.int32))}.get(case, {}))
    expect_error(opsnn.aclnnTriuGetWorkspaceSize, tuple(args.values()), code, "aclnnTriu", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 7), min_size=2, max_size=4), k=st.integers(-8, 8), upper=st.booleans(),
       dtype=st.sampled_from(ALL), seed=st.integers(0, 2**31 - 1), layout=st.sampled_from(["contiguous", "strided"]))
def test_property(npu, shape, k, upper, dtype, seed, layout):
    x = random_array(np.random.default_rng(seed), shape, dtype)
    (got,), _ = run(npu, "Triu" if upper else "Tril", x, k, Out(x.shape, x.dtype), layout=layout)
    np.testing.assert_array_equal(got, triangular_golden(x, upper, k))
