"""aclnnEmbedding against numpy fancy indexing on the tiny chip: dtypes, index ranks,
long rows (chunked), out-of-range indices reported at synchronisation, errors and a
property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from acl_runtime import acl
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from tests.opsnn.transform.helpers import BF16, device_tensor, empty, expect_error, random_array, upload


def run_emb(npu, w, idx, w_layout="contiguous", i_layout="contiguous"):
    tw = device_tensor(npu, w, w_layout)
    ti = device_tensor(npu, idx, i_layout)
    oshape = idx.shape + (w.shape[1],)
    po, to = empty(npu, oshape, w.dtype)
    prep = opsnn.aclnnEmbeddingGetWorkspaceSize(tw, ti, to)
    npu.run(prep, opsnn.aclnnEmbedding)
    return npu.to_host(po, oshape, w.dtype), prep[1]


@pytest.mark.parametrize("wdtype", [np.float32, np.float16, BF16, np.int8, np.int32, np.int64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("idtype", [np.int32, np.int64])
def test_embedding_dtypes(npu, rng, wdtype, idtype):
    w = random_array(rng, (11, 6), wdtype)
    idx = rng.integers(0, 11, (4, 5)).astype(idtype)
    got, _ = run_emb(npu, w, idx)
    np.testing.assert_array_equal(got, w[idx])


@pytest.mark.parametrize("ishape", [(), (1,), (7,), (2, 3, 4)])
def test_embedding_index_ranks(npu, rng, ishape):
    w = rng.standard_normal((9, 17)).astype(np.float32)
    idx = np.asarray(rng.integers(0, 9, ishape), dtype=np.int64)
    got, _ = run_emb(npu, w, idx)
    np.testing.assert_array_equal(got, w[idx])


def test_embedding_long_rows_are_chunked(npu, rng):
    """A 5000-float row cannot be double-buffered in 16 KiB of UB: rows are gathered
    in chunks."""
    w = rng.standard_normal((5, 5000)).astype(np.float32)
    idx = np.array([4, 0, 4, 2], np.int32)
    got, ex = run_emb(npu, w, idx)
    np.testing.assert_array_equal(got, w[idx])
    assert ex.info["chunks_per_row"] >= 2
    assert ex.kernels[0].spec.args["tiling"]["total_units"] == 4 * ex.info["chunks_per_row"]


def test_embedding_many_tiles(npu, rng):
    w = rng.standard_normal((100, 24)).astype(np.float16)
    idx = rng.integers(0, 100, (300,)).astype(np.int32)
    got, ex = run_emb(npu, w, idx)
    np.testing.assert_array_equal(got, w[idx])
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim


def test_embedding_non_contiguous(npu, rng):
    w = rng.standard_normal((12, 10)).astype(np.float32)
    idx = rng.integers(0, 12, (3, 4)).astype(np.int64)
    got, _ = run_emb(npu, w, idx, "transposed", "strided")
    np.testing.assert_array_equal(got, w[idx])


@pytest.mark.parametrize("bad", [10, -1])
def test_out_of_range_index_fails_at_synchronize(npu, rng, bad):
    """Phase 1 and 2 cannot see index values; the kernel checks them and the stream
    reports ACL_ERROR_RT_AICORE_EXCEPTION at synchronisation. ``out`` is untouched."""
    w = rng.standard_normal((10, 4)).astype(np.float32)
    idx = np.array([[1, 2], [bad, 3]], np.int32)
    tw = npu.to_device(w)[1]
    ti = npu.to_device(idx)[1]
    po, to = npu.to_device(np.full((2, 2, 4), 7.0, np.float32))
    ws, ex, ret = opsnn.aclnnEmbeddingGetWorkspaceSize(tw, ti, to)
    assert ret == 0 and opsnn.aclnnEmbedding(0, ws, ex, 0) == 0
    assert acl.rt.synchronize_stream(0) == 507015
    msg = acl.get_recent_err_msg()
    assert f"Embedding: indices[1, 0] = {bad} is out of range [0, 10) (1 bad index(es))" in msg, msg
    np.testing.assert_array_equal(npu.to_host(po, (2, 2, 4), np.float32), 7.0)
    # the stream recovers: a good launch after the failure runs
    got, _ = run_emb(npu, w, np.array([9, 0], np.int64))
    np.testing.assert_array_equal(got, w[[9, 0]])


def test_embedding_empty(npu):
    w = np.ones((4, 3), np.float32)
    got, ex = run_emb(npu, w, np.zeros((0, 2), np.int32))
    assert got.shape == (0, 2, 3) and ex.kernels == [] and ex.info["strategy"] == "empty"


@pytest.mark.parametrize("case,code,frag", [
    ("weight_null", NULL, "weight is null"),
    ("indices_null", NULL, "indices is null"),
    ("out_null", NULL, "out is null"),
    ("weight_numpy", INVALID, "weight must be an aclTensor"),
    ("indices_float", INVALID, "indices dtype ACL_FLOAT not supported; expected one of ACL_INT32, ACL_INT64"),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported; expected one of ACL_FLOAT"),
    ("weight_1d", INVALID, "weight must be 2-D, got shape [10]"),
    ("out_shape", INVALID, "out shape [3, 5] does not match expected [3, 4]"),
    ("indices_9d", INVALID, "indices must be at most 8-D"),
])
def test_embedding_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(weight=t((10, 4)), indices=t((3,), np.int32), out=t((3, 4)))
    args.update({
        "weight_null": dict(weight=None), "indices_null": dict(indices=None), "out_null": dict(out=None),
        "weight_numpy": dict(weight=np.zeros((10, 4))), "indices_float": dict(indices=t((3,))),
        "out_dtype": dict(out=t((3, 4), np.float16)), "weight_1d": dict(weight=t((10,))),
        "out_shape": dict(out=t((3, 5))), "indices_9d": dict(indices=t((1,) * 9, np.int32)),
    }.get(case, {}))
    expect_error(opsnn.aclnnEmbeddingGetWorkspaceSize, tuple(args.values()), code, "aclnnEmbedding", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(v=st.integers(1, 30), d=st.integers(1, 40), ishape=st.lists(st.integers(0, 6), max_size=3), data=st.data(),
       wdtype=st.sampled_from([np.float32, np.float16, BF16, np.int32]), idtype=st.sampled_from([np.int32, np.int64]),
       layout=st.sampled_from(["contiguous", "strided", "transposed"]))
def test_embedding_property(npu, v, d, ishape, data, wdtype, idtype, layout):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    w = random_array(rng, (v, d), wdtype)
    idx = np.asarray(rng.integers(0, v, tuple(ishape)), dtype=idtype)
    got, _ = run_emb(npu, w, idx, layout, layout)
    np.testing.assert_array_equal(got, w[idx])
