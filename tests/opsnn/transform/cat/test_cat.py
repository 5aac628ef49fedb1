"""aclnnCat and aclCreateTensorList against numpy.concatenate on the tiny chip: dims,
dtype promotion, the legacy empty-tensor rule, non-contiguous inputs, errors and a
property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn import aclDataType as T
from opsnn.transform.cat.infershape import can_cast, promote
from tests.opsnn.transform.helpers import BF16, device_tensor, empty, expect_error, random_array


def run_cat(npu, xs, dim, out_dtype=None, layouts=None, as_list=True):
    layouts = layouts or ["contiguous"] * len(xs)
    ts = [device_tensor(npu, x, lay) for x, lay in zip(xs, layouts)]
    used = [x for x in xs if not (x.ndim == 1 and x.shape[0] == 0)]
    ref = np.concatenate([x.astype(out_dtype) if out_dtype else x for x in used], axis=dim) if used else xs[0]
    od = np.dtype(out_dtype) if out_dtype else ref.dtype
    po, to = empty(npu, ref.shape, od)
    tl = opsnn.aclCreateTensorList(ts) if as_list else ts
    prep = opsnn.aclnnCatGetWorkspaceSize(tl, dim, to)
    npu.run(prep, opsnn.aclnnCat)
    return npu.to_host(po, ref.shape, od), ref.astype(od), prep[1]


@pytest.mark.parametrize("shapes,dim", [([(2, 3), (4, 3)], 0), ([(2, 3), (2, 5), (2, 1)], 1), ([(2, 3, 4)] * 3, -1),
                                        ([(7,)], 0), ([(1, 2, 3), (1, 2, 3)], 1)])
@pytest.mark.parametrize("as_list", [True, False])
def test_cat_float32(npu, rng, shapes, dim, as_list):
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    got, ref, ex = run_cat(npu, xs, dim, as_list=as_list)
    np.testing.assert_array_equal(got, ref)
    assert ex.info["strategy"] == "copy" and ex.info["concatenated"] == len(shapes)


@pytest.mark.parametrize("dtype", [np.float16, BF16, np.int8, np.int32, np.int64, np.bool_, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_cat_same_dtype(npu, rng, dtype):
    xs = [random_array(rng, (3, n, 2), dtype) for n in (1, 4, 17)]
    got, ref, _ = run_cat(npu, xs, 1)
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("dtypes,out", [((np.float16, np.float32), np.float32), ((np.float16, BF16), np.float32),
                                        ((np.int32, np.float16), np.float16), ((np.int8, np.uint8), np.int16),
                                        ((np.bool_, np.int32), np.int64), ((np.int32, np.int64), np.float32)])
def test_cat_promotes_and_casts(npu, rng, dtypes, out):
    xs = [random_array(rng, (2, 3), d) for d in dtypes]
    got, ref, ex = run_cat(npu, xs, 0, out_dtype=out)
    np.testing.assert_array_equal(got, ref)
    spec = ex.kernels[0].spec
    assert sum(ts.stages[1].vector_bytes * ts.count for b in spec.blocks for ts in b.tiles) > 0  # a cast pass


def test_promotion_and_cast_rules():
    assert promote(T.ACL_FLOAT16, T.ACL_BF16) == T.ACL_FLOAT
    assert promote(T.ACL_INT8, T.ACL_UINT8) == T.ACL_INT16
    assert promote(T.ACL_BOOL, T.ACL_INT8) == T.ACL_INT8
    assert promote(T.ACL_INT64, T.ACL_FLOAT16) == T.ACL_FLOAT16
    assert can_cast(T.ACL_INT32, T.ACL_FLOAT) and not can_cast(T.ACL_FLOAT, T.ACL_INT32)
    assert can_cast(T.ACL_BOOL, T.ACL_BF16) and not can_cast(T.ACL_INT8, T.ACL_BOOL)


def test_cat_skips_legacy_empty_1d(npu, rng):
    xs = [rng.standard_normal((2, 3)).astype(np.float32), np.zeros((0,), np.float32),
          rng.standard_normal((1, 3)).astype(np.float32)]
    got, ref, ex = run_cat(npu, xs, 0)
    np.testing.assert_array_equal(got, ref)
    assert ex.info["concatenated"] == 2 and len(ex.inputs) == 3


def test_cat_many_tiles_and_edge_runs(npu, rng):
    xs = [rng.standard_normal((50, n)).astype(np.float32) for n in (3, 61, 7)]
    got, ref, ex = run_cat(npu, xs, 1)
    np.testing.assert_array_equal(got, ref)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2
    # short runs (3 and 7 floats) are written as whole 32 B blocks
    mte3 = sum(ts.stages[2].nbytes * ts.count for b in spec.blocks for ts in b.tiles)
    assert mte3 >= 50 * (32 + 256 + 32) - spec.block_dim * 8


def test_cat_non_contiguous(npu, rng):
    xs = [rng.standard_normal((4, 5)).astype(np.float32) for _ in range(3)]
    got, ref, _ = run_cat(npu, xs, 0, layouts=["strided", "transposed", "contiguous"])
    np.testing.assert_array_equal(got, ref)


def test_cat_empty_output(npu):
    xs = [np.zeros((0, 3), np.float32), np.zeros((0, 3), np.float32)]
    got, ref, ex = run_cat(npu, xs, 0)
    assert got.shape == (0, 3) and ex.kernels == [] and ex.info["strategy"] == "empty"


def test_tensor_list_errors(npu):
    t = npu.empty((2,), np.float32)[1]
    assert opsnn.aclCreateTensorList([t, t]) == (t, t)
    assert opsnn.aclCreateTensorList(None) is None
    assert opsnn.aclGetRecentErrMsg() == "[161001] aclCreateTensorList: value is null"
    assert opsnn.aclCreateTensorList([t, None]) is None
    assert opsnn.aclGetRecentErrMsg() == "[161001] aclCreateTensorList: tensor 1 is null"
    assert opsnn.aclCreateTensorList([t, 3]) is None
    assert opsnn.aclGetRecentErrMsg() == "[161002] aclCreateTensorList: tensor 1 is a int, not an aclTensor"
    assert opsnn.aclCreateTensorList([t], 2) is None
    assert opsnn.aclGetRecentErrMsg() == "[161002] aclCreateTensorList: size 2 but 1 tensors given"
    assert opsnn.aclCreateTensorList(5) is None
    assert "value must be a sequence of aclTensor, got int" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclDestroyTensorList(opsnn.aclCreateTensorList([t])) == 0
    assert opsnn.aclDestroyTensorList(None) == NULL


@pytest.mark.parametrize("case,code,frag", [
    ("list_null", NULL, "tensors is null"),
    ("dim_null", NULL, "dim is null"),
    ("out_null", NULL, "out is null"),
    ("elem_null", NULL, "tensors[1] is null"),
    ("elem_numpy", INVALID, "tensors[0] must be an aclTensor"),
    ("list_empty", INVALID, "tensors must hold at least one tensor"),
    ("list_scalar", INVALID, "tensors must be an aclTensorList, got int"),
    ("out_dtype", INVALID, "out dtype ACL_INT32 cannot hold the promoted dtype ACL_FLOAT of tensors"),
    ("zero_d", INVALID, "tensors[0] must be 1-D to 8-D, got shape []"),
    ("dim_range", INVALID, "dim 2 out of range [-2, 2) for 2-D tensors"),
    ("dim_float", INVALID, "dim must be an integer, got 0.0"),
    ("rank_mismatch", INVALID, "tensors[1] shape [2, 3, 1] does not match tensors[0] shape [2, 3] outside dim 0"),
    ("shape_mismatch", INVALID, "tensors[1] shape [2, 4] does not match tensors[0] shape [2, 3] outside dim 0"),
    ("out_shape", INVALID, "out shape [4, 4] does not match expected [4, 3]"),
])
def test_cat_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(tensors=[t((2, 3)), t((2, 3))], dim=0, out=t((4, 3)))
    args.update({
        "list_null": dict(tensors=None), "dim_null": dict(dim=None), "out_null": dict(out=None),
        "elem_null": dict(tensors=[t((2, 3)), None]), "elem_numpy": dict(tensors=[np.zeros((2, 3))]),
        "list_empty": dict(tensors=[]), "list_scalar": dict(tensors=3), "out_dtype": dict(out=t((4, 3), np.int32)),
        "zero_d": dict(tensors=[opsnn.aclCreateTensor((), 0, None, 0, 2, (), 0)]), "dim_range": dict(dim=2),
        "dim_float": dict(dim=0.0), "rank_mismatch": dict(tensors=[t((2, 3)), t((2, 3, 1))]),
        "shape_mismatch": dict(tensors=[t((2, 3)), t((2, 4))]), "out_shape": dict(out=t((4, 4))),
    }.get(case, {}))
    expect_error(opsnn.aclnnCatGetWorkspaceSize, tuple(args.values()), code, "aclnnCat", frag)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4), data=st.data(),
       dtype=st.sampled_from([np.float32, np.float16, BF16, np.int32, np.int8, np.bool_]))
def test_cat_property(npu, shape, data, dtype):
    rank = len(shape)
    dim = data.draw(st.integers(-rank, rank - 1))
    sizes = data.draw(st.lists(st.integers(0, 6), min_size=1, max_size=4))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    xs = []
    for n in sizes:
        s = list(shape)
        s[dim] = n
        xs.append(random_array(rng, tuple(s), dtype))
    layouts = data.draw(st.lists(st.sampled_from(["contiguous", "strided", "transposed"]), min_size=len(xs),
                                 max_size=len(xs)))
    got, ref, _ = run_cat(npu, xs, dim, layouts=layouts)
    np.testing.assert_array_equal(got, ref)
