"""aclnnEinsum against the explicit label-loop golden on the tiny chip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.einsum.golden import einsum_golden
from opsnn.transform.einsum.infershape import parse
from opsnn.transform.einsum.tiling import einsum_tiling
from npu_sim import PRESETS
from tests.conftest import rel_err
from tests.opsnn.transform.common.runner import many_tiles
from tests.opsnn.transform.helpers import BF16, TOL, device_tensor, empty, expect_error, random_array

CASES = [("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("i,i", [(7,), (7,)]), ("...ii->...i", [(3, 4, 4)]),
         ("ij->ji", [(3, 5)]), ("abcd,abced->abce", [(2, 3, 4, 5), (2, 3, 4, 6, 5)]), ("a,b->ab", [(4,), (6,)])]


def _run(npu, eq, xs, shape, layout):
    ts = [device_tensor(npu, x, layout) for x in xs]
    po, to = empty(npu, shape, xs[0].dtype)
    prep = opsnn.aclnnEinsumGetWorkspaceSize(opsnn.aclCreateTensorList(ts), eq, to)
    npu.run(prep, opsnn.aclnnEinsum)
    return [npu.to_host(po, shape, xs[0].dtype)], prep[1]


@pytest.mark.parametrize("eq,shapes", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16, np.int32, np.int64, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_equations_and_dtypes(npu, rng, eq, shapes, dtype):
    xs = [random_array(rng, s, dtype) for s in shapes]
    (y,), ex = _run(npu, eq, xs, parse_out(eq, xs), "contiguous")
    terms, out, sizes = parse(eq, [x.shape for x in xs])
    ref = einsum_golden(terms, out, sizes, xs)
    if np.dtype(dtype).kind in "iu":
        np.testing.assert_array_equal(y, ref.astype(dtype))
    else:
        assert rel_err(y, ref) <= 4 * TOL.get(np.dtype(dtype), 1e-12)


def parse_out(eq, xs):
    _, out, sizes = parse(eq, [x.shape for x in xs])
    return tuple(sizes[c] for c in out)


def test_many_tiles_strided(npu, rng):
    xs = [rng.standard_normal((8, 64, 16)).astype(np.float32), rng.standard_normal((8, 16, 48)).astype(np.float32)]
    (y,), ex = _run(npu, "bij,bjk->bik", xs, (8, 64, 48), "strided")
    assert rel_err(y, np.einsum("bij,bjk->bik", *[x.astype(np.float64) for x in xs])) <= 1e-5 and many_tiles(ex)


def test_tiling_counts_the_label_space():
    res = einsum_tiling(PRESETS["tiny"], 1000, 40, 2 * 3 * 4 * 5, 4)
    assert res.data.vector_bytes == 120 * 8 and res.data.mte3_bytes == 160 and dict(res.data.params)["terms"] == 120


def test_errors(npu):
    a, b = npu.empty((2, 3), np.float32)[1], npu.empty((3, 4), np.float32)[1]
    o = npu.empty((2, 4), np.float32)[1]
    tl = opsnn.aclCreateTensorList([a, b])
    expect_error(opsnn.aclnnEinsumGetWorkspaceSize, (None, "ij,jk->ik", o), NULL, "tensors is null")
    expect_error(opsnn.aclnnEinsumGetWorkspaceSize, (tl, None, o), NULL, "equation is null")
    expect_error(opsnn.aclnnEinsumGetWorkspaceSize, (tl, "ij->ij", o), INVALID, "has 1 operands")
    expect_error(opsnn.aclnnEinsumGetWorkspaceSize, (tl, "ij,ik->jk", o), INVALID, "label 'i' has sizes 2 and 3")
    expect_error(opsnn.aclnnEinsumGetWorkspaceSize, (tl, "ij,jk->ki", o), INVALID, "does not match expected [4, 2]")
    c = npu.empty((3, 4), np.float16)[1]
    expect_error(opsnn.aclnnEinsumGetWorkspaceSize, (opsnn.aclCreateTensorList([a, c]), "ij,jk->ik", o), INVALID,
                 "tensors[1] dtype ACL_FLOAT16")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(b=st.integers(1, 3), m=st.integers(1, 5), k=st.integers(1, 5), n=st.integers(1, 5),
       seed=st.integers(0, 2**31 - 1), dtype=st.sampled_from([np.float32, np.int32]))
def test_property(npu, b, m, k, n, seed, dtype):
    r = np.random.default_rng(seed)
    xs = [random_array(r, (b, m, k), dtype), random_array(r, (b, k, n), dtype)]
    (y,), _ = _run(npu, "bmk,bkn->bnm", xs, (b, n, m), "contiguous")
    ref = np.einsum("bmk,bkn->bnm", *[x.astype(np.float64) for x in xs])
    np.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)
