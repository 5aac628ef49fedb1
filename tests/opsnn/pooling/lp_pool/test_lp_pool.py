"""aclnnLpPool (npu-sim's; CANN has none): tiling without a device, numbers against the
float64 golden on the tiny chip, statuses, hypothesis over shapes, strides, p and dtypes."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import opsnn
from npu_sim import PRESETS
from opsnn.pooling.lp_pool.golden import lp_pool_golden
from opsnn.pooling.lp_pool.infershape import lp_geoms
from opsnn.pooling.lp_pool.tiling import lp_pool_tiling
from tests.conftest import rel_err
from tests.opsnn.pooling.helpers import TOL, assert_many_tiles, expect_error, run_op

ia = opsnn.aclCreateIntArray


def test_tiling_one_pass_up_to_2d_two_for_3d():
    g2 = lp_geoms((2, 3, 16, 16), (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), False)
    res, passes = lp_pool_tiling(PRESETS["tiny"], g2, 4)
    assert res.strategy == "single" and len(passes) == 1 and res.workspace_bytes == 0
    # every output row reads its 3 input rows of all 16 columns (+ the pads do not count): 6 planes x 16 rows
    assert passes[0].data.in_bytes == 6 * 16 * 3 * 16 * 4 and passes[0].data.out_bytes == 6 * 16 * 16 * 4
    g3 = lp_geoms((1, 2, 6, 8, 8), (2, 2, 2), (2, 2, 2), (1, 1, 1), (0,) * 6, False)
    res, passes = lp_pool_tiling(PRESETS["ascend910b2"], g3, 2)
    assert res.strategy == "separable" and len(passes) == 2
    assert res.workspace_bytes == 2 * 6 * 4 * 4 * 4            # fp32 sums of pass 1
    assert passes[1].data.in_bytes == res.workspace_bytes and passes[1].data.out_bytes == 2 * 3 * 4 * 4 * 2
    g1 = lp_geoms((1, 4, 50), (3,), (2,), (1,), (1, 0), True)
    assert (g1[0].h, g1[0].w, g1[0].kh, g1[0].kw, g1[0].wo) == (1, 50, 1, 3, 25)


# shape, kernel, strides, dilations, pads, p, ceil
CASES = [((2, 3, 20), (3,), (2,), (1,), (1, 2), 3.0, False),
         ((1, 3, 9, 10), (3, 2), (2, 1), (1, 2), (2, 1, 2, 0), 2.0, True),
         ((1, 2, 5, 6, 7), (2, 3, 2), (2, 1, 2), (1, 1, 2), (1, 0, 1, 0, 1, 1), 4.0, False),
         ((1, 8, 41, 41), (3, 3), (1, 1), (1, 1), (1, 1, 1, 1), 1.5, False)]


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
@pytest.mark.parametrize("dtype", [np.float32, np.float16], ids=["fp32", "fp16"])
def test_lp_pool(npu, rng, case, dtype):
    shape, k, s, d, p, pw, ceil = case
    x = rng.standard_normal(shape).astype(dtype)
    ref = lp_pool_golden(x, k, s, d, p, pw, ceil)
    (got,), ex = run_op(npu, opsnn.aclnnLpPoolGetWorkspaceSize, opsnn.aclnnLpPool, x,
                        [ia(k), ia(s), ia(p), ia(d), int(ceil), pw], [(ref.shape, dtype)])
    assert rel_err(got, ref) < TOL[np.dtype(dtype)]
    assert len(ex.kernels) == (2 if len(shape) == 5 else 1)
    if shape[-1] == 41:
        assert_many_tiles(ex.kernels[0].spec)


def test_statuses(npu):
    x = npu.empty((1, 2, 4, 4), np.float32)[1]
    out = npu.empty((1, 2, 3, 3), np.float32)[1]
    prep = opsnn.aclnnLpPoolGetWorkspaceSize
    assert prep(x, [2, 2], [], [], [], 0, 2.0, out)[2] == 0
    expect_error(prep, [None, [2, 2], [], [], [], 0, 2.0, out], 161001, "self is null")
    expect_error(prep, [x, [2, 2], [], [], [], 0, 0.0, out], 161002, "p must be a finite number > 0")
    expect_error(prep, [x, [2], [], [], [], 0, 2.0, out], 161002, "kernelShape must have 2 elements")
    expect_error(prep, [x, [2, 2], [], [1, 1], [], 0, 2.0, out], 161002, "pads must have 0 or 4 elements")
    expect_error(prep, [x, [5, 2], [], [], [], 0, 2.0, out], 161002, "output size [0, 3] is too small")
    expect_error(prep, [x, [2, 2], [], [], [], 0, 2.0, npu.empty((1, 2, 3, 4), np.float32)[1]], 161002,
                 "out shape [1, 2, 3, 4]")
    expect_error(prep, [npu.empty((2, 4), np.float32)[1], [2], [], [], [], 0, 2.0, out], 161002,
                 "self must be 3/4/5-D")
    expect_error(prep, [npu.empty((1, 2, 4, 4), np.int32)[1], [2, 2], [], [], [], 0, 2.0, out], 161002,
                 "self dtype ACL_INT32")


@st.composite
def problems(draw):
    nsp = draw(st.integers(1, 3))
    k = tuple(draw(st.integers(1, 3)) for _ in range(nsp))
    s = tuple(draw(st.integers(1, 3)) for _ in range(nsp))
    d = tuple(draw(st.integers(1, 2)) for _ in range(nsp))
    p = tuple(draw(st.integers(0, 2)) for _ in range(2 * nsp))
    shape = (draw(st.integers(1, 2)), draw(st.integers(1, 3))) + tuple(draw(st.integers(1, 6)) for _ in range(nsp))
    return shape, k, s, d, p, draw(st.sampled_from([1.0, 2.0, 3.0, 2.5])), draw(st.booleans()), \
        draw(st.sampled_from([np.float32, np.float16]))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(prob=problems(), seed=st.integers(0, 2**31 - 1))
def test_property_lp_pool_matches_golden(npu, prob, seed):
    shape, k, s, d, p, pw, ceil, dtype = prob
    nsp = len(k)
    assume(all(shape[2 + i] + p[i] + p[i + nsp] >= d[i] * (k[i] - 1) + 1 for i in range(nsp)))
    x = np.random.default_rng(seed).standard_normal(shape).astype(dtype)
    ref = lp_pool_golden(x, k, s, d, p, pw, ceil)
    assume(min(ref.shape[2:]) >= 1)
    (got,), _ = run_op(npu, opsnn.aclnnLpPoolGetWorkspaceSize, opsnn.aclnnLpPool, x,
                       [ia(k), ia(s), ia(p), ia(d), int(ceil), pw], [(ref.shape, dtype)])
    assert rel_err(got, ref) < TOL[np.dtype(dtype)]
