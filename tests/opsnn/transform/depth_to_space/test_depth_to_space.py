"""aclnnDepthToSpace / aclnnSpaceToDepth and aclnnTriu / aclnnTril against their
element-loop goldens on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.depth_to_space.golden import depth_to_space_golden, space_to_depth_golden
from tests.opsnn.transform.common.runner import Out, many_tiles, run
from tests.opsnn.transform.helpers import BF16, expect_error, random_array

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("mode", ["DCR", "CRD"])
def test_depth_to_space_round_trip(npu, rng, dtype, mode):
    x = random_array(rng, (2, 8, 3, 5), dtype)
    (y,), ex = run(npu, "DepthToSpace", x, 2, mode, Out((2, 2, 6, 10), x.dtype))
    np.testing.assert_array_equal(y, depth_to_space_golden(x, 2, mode))
    (z,), _ = run(npu, "SpaceToDepth", y, 2, mode, Out(x.shape, x.dtype))
    np.testing.assert_array_equal(z, x)
    np.testing.assert_array_equal(z, space_to_depth_golden(y, 2, mode))


def test_many_tiles_strided(npu, rng):
    x = rng.standard_normal((4, 36, 8, 8)).astype(np.float32)
    (y,), ex = run(npu, "DepthToSpace", x, 3, "DCR", Out((4, 4, 24, 24), x.dtype), layout="strided")
    np.testing.assert_array_equal(y, depth_to_space_golden(x, 3))
    assert many_tiles(ex)


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"), ("mode_null", NULL, "mode is null"),
    ("rank", INVALID, "self must be 4-D"), ("block", INVALID, "blockSize 0 must be >= 1"),
    ("mode", INVALID, "mode 'XYZ'"), ("divisible", INVALID, "channels 8 not divisible by blockSize**2 = 9"),
])
def test_depth_to_space_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((1, 8, 2, 2)), b=2, mode="DCR", out=t((1, 2, 4, 4)))
    args.update({"self_null": dict(self=None), "mode_null": dict(mode=None), "rank": dict(self=t((8, 2, 2))),
                 "block": dict(b=0), "mode": dict(mode="XYZ"), "divisible": dict(b=3)}.get(case, {}))
    expect_error(opsnn.aclnnDepthToSpaceGetWorkspaceSize, tuple(args.values()), code, "aclnnDepthToSpace", frag)


def test_space_to_depth_needs_divisible_space(npu):
    x, o = npu.empty((1, 1, 3, 4), np.float32)[1], npu.empty((1, 4, 1, 2), np.float32)[1]
    expect_error(opsnn.aclnnSpaceToDepthGetWorkspaceSize, (x, 2, "DCR", o), INVALID, "must be divisible by blockSize 2")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(b=st.integers(1, 3), n=st.integers(1, 2), c=st.integers(1, 3), h=st.integers(1, 3), w=st.integers(1, 3),
       dtype=st.sampled_from(ALL), mode=st.sampled_from(["DCR", "CRD"]), seed=st.integers(0, 2**31 - 1))
def test_property(npu, b, n, c, h, w, dtype, mode, seed):
    x = random_array(np.random.default_rng(seed), (n, c * b * b, h, w), dtype)
    (y,), _ = run(npu, "DepthToSpace", x, b, mode, Out((n, c, h * b, w * b), x.dtype))
    np.testing.assert_array_equal(y, depth_to_space_golden(x, b, mode))
