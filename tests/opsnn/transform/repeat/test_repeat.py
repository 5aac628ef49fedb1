"""aclnnRepeat against its index-grid golden on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.repeat.golden import repeat_golden
from opsnn.transform.repeat.infershape import repeated_shape
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, expect_error, random_array

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_every_dtype_and_leading_axes(npu, rng, dtype):
    x = random_array(rng, (2, 3), dtype)
    (got,), ex = run(npu, "Repeat", x, [2, 1, 3], Out(repeated_shape(x.shape, [2, 1, 3]), x.dtype))
    np.testing.assert_array_equal(got, repeat_golden(x, [2, 1, 3]))
    assert ex.info["repeats"] == [2, 1, 3]


def test_many_tiles(npu, rng):
    x = rng.standard_normal((32, 40)).astype(np.float16)
    (got,), ex = run(npu, "Repeat", x, [4, 3], Out((128, 120), x.dtype), layout="transposed")
    np.testing.assert_array_equal(got, repeat_golden(x, [4, 3]))
    assert many_tiles(ex)


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"), ("reps_null", NULL, "repeats is null"), ("out_null", NULL, "out is null"),
    ("short", INVALID, "must have 2 to 8 entries"), ("negative", INVALID, "must not be negative"),
    ("shape", INVALID, "does not match expected [6, 4]"),
])
def test_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), reps=[2, 1], out=t((6, 4)))
    args.update({"self_null": dict(self=None), "reps_null": dict(reps=None), "out_null": dict(out=None),
                 "short": dict(reps=[2]), "negative": dict(reps=[-1, 1]), "shape": dict(out=t((3, 4)))}.get(case, {}))
    expect_error(opsnn.aclnnRepeatGetWorkspaceSize, tuple(args.values()), code, "aclnnRepeat", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 5), min_size=0, max_size=3), data=st.data(), dtype=st.sampled_from(ALL))
def test_property(npu, shape, data, dtype):
    reps = data.draw(st.lists(st.integers(0, 3), min_size=len(shape), max_size=len(shape) + 1))
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))), shape, dtype)
    (got,), _ = run(npu, "Repeat", x, reps, Out(repeated_shape(x.shape, reps), x.dtype))
    np.testing.assert_array_equal(got, repeat_golden(x, reps))
