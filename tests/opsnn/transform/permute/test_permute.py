"""aclnnPermute against numpy.transpose on the tiny chip: every dtype, merged axes,
non-contiguous input, errors and a property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.permute.infershape import merge_perm
from tests.opsnn.transform.helpers import BF16, device_tensor, empty, expect_error, random_array

ALL = [np.float32, np.float16, BF16, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float64, np.bool_]


def run_permute(npu, x, dims, layout="contiguous"):
    tx = device_tensor(npu, x, layout)
    oshape = tuple(x.shape[d] for d in dims)
    po, to = empty(npu, oshape, x.dtype)
    prep = opsnn.aclnnPermuteGetWorkspaceSize(tx, opsnn.aclCreateIntArray(dims), to)
    npu.run(prep, opsnn.aclnnPermute)
    return npu.to_host(po, oshape, x.dtype), prep[1]


@pytest.mark.parametrize("dtype", ALL, ids=lambda d: np.dtype(d).name)
def test_permute_every_dtype(npu, rng, dtype):
    x = random_array(rng, (3, 5, 7), dtype)
    got, _ = run_permute(npu, x, [2, 0, 1])
    np.testing.assert_array_equal(got, np.transpose(x, (2, 0, 1)))


@pytest.mark.parametrize("shape,dims,strategy,merged", [
    ((2, 3, 4, 5), [0, 2, 1, 3], "dma_permute", [0, 2, 1, 3]),
    ((2, 3, 4, 5), [0, 1, 2, 3], "copy", [0]),
    ((2, 3, 4, 5), [3, 0, 1, 2], "transpose", [1, 0]),
    ((2, 1, 4, 5), [1, 0, 2, 3], "copy", [0]),
    ((6, 17), [-1, -2], "transpose", [1, 0]),
    ((), [], "copy", [0]),
])
def test_permute_axis_handling(npu, rng, shape, dims, strategy, merged):
    x = rng.standard_normal(shape).astype(np.float32)
    got, ex = run_permute(npu, x, dims)
    np.testing.assert_array_equal(got, np.transpose(x, dims) if shape else x)
    assert ex.info["strategy"] == strategy and ex.info["merged_perm"] == merged
    spec = ex.kernels[0].spec
    assert spec.args["strategy"] == strategy
    vec = sum(ts.stages[1].vector_bytes * ts.count for b in spec.blocks for ts in b.tiles)
    assert (vec > 0) == (strategy == "transpose")


def test_merge_perm_drops_unit_axes():
    assert merge_perm((2, 1, 4, 5), [0, 2, 1, 3]) == ([0], [40])
    assert merge_perm((2, 3, 4, 5), [2, 3, 0, 1]) == ([1, 0], [6, 20])


def test_permute_many_tiles(npu, rng):
    x = rng.standard_normal((128, 96)).astype(np.float32)
    got, ex = run_permute(npu, x, [1, 0])
    np.testing.assert_array_equal(got, x.T)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim


@pytest.mark.parametrize("layout", ["strided", "transposed"])
def test_permute_non_contiguous(npu, rng, layout):
    x = rng.standard_normal((4, 6, 9)).astype(np.float16)
    got, _ = run_permute(npu, x, [1, 2, 0], layout)
    np.testing.assert_array_equal(got, np.transpose(x, (1, 2, 0)))


def test_permute_empty(npu):
    x = np.zeros((0, 3), np.float32)
    got, ex = run_permute(npu, x, [1, 0])
    assert got.shape == (3, 0) and ex.kernels == [] and ex.info["strategy"] == "empty"


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("dims_null", NULL, "dims is null"),
    ("out_null", NULL, "out is null"),
    ("self_numpy", INVALID, "self must be an aclTensor"),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported; expected one of ACL_FLOAT"),
    ("dims_short", INVALID, "dims [1] has 1 entries for a 2-D self"),
    ("dims_repeat", INVALID, "dims [1, 1] is not a permutation of the 2 axes"),
    ("dims_range", INVALID, "dims [0, 2] out of range [-2, 2)"),
    ("dims_float", INVALID, "dims must hold integers, got 1.0"),
    ("dims_scalar", INVALID, "dims must be an aclIntArray, got int"),
    ("out_shape", INVALID, "out shape [3, 4] does not match expected [4, 3]"),
    ("rank_9", INVALID, "self must be at most 8-D"),
])
def test_permute_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((3, 4)), dims=[1, 0], out=t((4, 3)))
    args.update({
        "self_null": dict(self=None), "dims_null": dict(dims=None), "out_null": dict(out=None),
        "self_numpy": dict(self=np.zeros((3, 4))), "out_dtype": dict(out=t((4, 3), np.float16)),
        "dims_short": dict(dims=[1]), "dims_repeat": dict(dims=[1, 1]), "dims_range": dict(dims=[0, 2]),
        "dims_float": dict(dims=[1.0, 0]), "dims_scalar": dict(dims=1), "out_shape": dict(out=t((3, 4))),
        "rank_9": dict(self=t((1,) * 9), dims=list(range(9)), out=t((1,) * 9)),
    }.get(case, {}))
    expect_error(opsnn.aclnnPermuteGetWorkspaceSize, tuple(args.values()), code, "aclnnPermute", frag)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=5), data=st.data(),
       dtype=st.sampled_from(ALL), layout=st.sampled_from(["contiguous", "strided", "transposed"]))
def test_permute_property(npu, shape, data, dtype, layout):
    perm = data.draw(st.permutations(range(len(shape))))
    neg = data.draw(st.booleans())
    dims = [p - len(shape) if neg else p for p in perm]
    x = random_array(np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))), shape, dtype)
    got, _ = run_permute(npu, x, dims, layout)
    np.testing.assert_array_equal(got, np.transpose(x, perm))
