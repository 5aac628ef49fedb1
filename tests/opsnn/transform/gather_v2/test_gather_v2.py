"""aclnnGatherV2 against numpy's ``np.take`` on the tiny chip: negative and positive
indices, ranks of self and index, many tiles, out-of-range indices reported at
synchronisation, one status per bad input, the tiling (Embedding's) without a device,
and a property test."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import opsnn
from acl_runtime import acl
from npu_sim import get_chip
from opsnn import ACLNN_ERR_PARAM_INVALID as INVALID
from opsnn import ACLNN_ERR_PARAM_NULLPTR as NULL
from opsnn.transform.embedding.tiling import embedding_tiling
from opsnn.transform.embedding.kernel import tile_program
from tests.opsnn.transform.helpers import BF16, device_tensor, empty, expect_error, random_array


def run_gv2(npu, x, idx, layout="contiguous"):
    tx = device_tensor(npu, x, layout)
    ti = device_tensor(npu, idx, layout)
    oshape = idx.shape + x.shape[1:]
    po, to = empty(npu, oshape, x.dtype)
    prep = opsnn.aclnnGatherV2GetWorkspaceSize(tx, 0, ti, to)
    npu.run(prep, opsnn.aclnnGatherV2)
    return npu.to_host(po, oshape, x.dtype), prep[1]


@pytest.mark.parametrize("xdtype", [np.float32, np.float16, BF16, np.int8, np.int64, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("idtype", [np.int32, np.int64])
def test_negative_and_positive_indices(npu, rng, xdtype, idtype):
    x = random_array(rng, (11, 6), xdtype)
    idx = rng.integers(-11, 11, (4, 5)).astype(idtype)
    got, _ = run_gv2(npu, x, idx)
    np.testing.assert_array_equal(got, np.take(x, idx.astype(np.int64), axis=0))


@pytest.mark.parametrize("xshape,ishape", [((9,), ()), ((9, 3, 4), (2, 3)), ((5, 2, 2, 2), (7,))])
def test_ranks(npu, rng, xshape, ishape):
    x = rng.standard_normal(xshape).astype(np.float32)
    idx = np.asarray(rng.integers(-xshape[0], xshape[0], ishape), dtype=np.int64)
    got, _ = run_gv2(npu, x, idx)
    np.testing.assert_array_equal(got, np.take(x.astype(np.float64), idx, axis=0).astype(np.float32))


def test_many_tiles(npu, rng):
    x = rng.standard_normal((100, 24)).astype(np.float16)
    idx = rng.integers(-100, 100, (300,)).astype(np.int32)
    got, ex = run_gv2(npu, x, idx)
    np.testing.assert_array_equal(got, np.take(x, idx, axis=0))
    spec = ex.kernels[0].spec
    assert spec.name == "GatherV2" and spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim


def test_tiling_is_embeddings_without_a_device():
    chip = get_chip("tiny")
    res = embedding_tiling(chip, 300, 24, 2, 4)
    spec = tile_program(res.data, {"shapes": [[100, 24], [300]]}, res.tiling_key, "GatherV2")
    assert spec.name == "GatherV2" and spec.args["bytes"] > 0 and spec.args["chunks_per_row"] == res.data.chunks_per_row


@pytest.mark.parametrize("bad", [10, -11])
def test_out_of_range_index_fails_at_synchronize(npu, rng, bad):
    x = rng.standard_normal((10, 4)).astype(np.float32)
    idx = np.array([[1, -2], [bad, 3]], np.int32)
    tx, ti = npu.to_device(x)[1], npu.to_device(idx)[1]
    po, to = npu.to_device(np.full((2, 2, 4), 7.0, np.float32))
    ws, ex, ret = opsnn.aclnnGatherV2GetWorkspaceSize(tx, 0, ti, to)
    assert ret == 0 and opsnn.aclnnGatherV2(0, ws, ex, 0) == 0
    assert acl.rt.synchronize_stream(0) == 507015
    msg = acl.get_recent_err_msg()
    assert f"GatherV2: index[1, 0] = {bad} is out of range [-10, 10) (1 bad index(es))" in msg, msg
    np.testing.assert_array_equal(npu.to_host(po, (2, 2, 4), np.float32), 7.0)


@pytest.mark.parametrize("case,code,frag", [
    ("self_null", NULL, "self is null"),
    ("index_null", NULL, "index is null"),
    ("out_null", NULL, "out is null"),
    ("index_float", INVALID, "index dtype ACL_FLOAT not supported; expected one of ACL_INT32, ACL_INT64"),
    ("out_dtype", INVALID, "out dtype ACL_FLOAT16 not supported; expected one of ACL_FLOAT"),
    ("dim_1", INVALID, "dim 1: npu-sim's aclnnGatherV2 gathers along dim 0 only"),
    ("out_shape", INVALID, "out shape [3, 5] does not match expected [3, 4]"),
    ("self_9d", INVALID, "self must be 1-8-D"),
])
def test_errors(npu, case, code, frag):
    def t(shape, dtype=np.float32):
        return npu.empty(shape, dtype)[1]
    args = dict(self=t((10, 4)), dim=0, index=t((3,), np.int32), out=t((3, 4)))
    args.update({
        "self_null": dict(self=None), "index_null": dict(index=None), "out_null": dict(out=None),
        "index_float": dict(index=t((3,))), "out_dtype": dict(out=t((3, 4), np.float16)), "dim_1": dict(dim=1),
        "out_shape": dict(out=t((3, 5))), "self_9d": dict(self=t((1,) * 9)),
    }.get(case, {}))
    expect_error(opsnn.aclnnGatherV2GetWorkspaceSize, tuple(args.values()), code, "aclnnGatherV2", frag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(v=st.integers(1, 30), d=st.integers(1, 40), ishape=st.lists(st.integers(0, 6), max_size=3), data=st.data(),
       xdtype=st.sampled_from([np.float32, np.float16, BF16, np.int32]), idtype=st.sampled_from([np.int32, np.int64]),
       layout=st.sampled_from(["contiguous", "strided", "transposed"]))
def test_property(npu, v, d, ishape, data, xdtype, idtype, layout):
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    x = random_array(rng, (v, d), xdtype)
    idx = np.asarray(rng.integers(-v, v, tuple(ishape)), dtype=idtype)
    got, _ = run_gv2(npu, x, idx, layout)
    np.testing.assert_array_equal(got, np.take(x, idx.astype(np.int64), axis=0))
