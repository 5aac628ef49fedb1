"""aclnnPrelu against the float64 golden on the tiny chip: channel, scalar and
broadcast weights; many blocks and edge tiles; hypothesis; one status per bad input."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import opsnn
from opsnn.activation.prelu.golden import prelu_golden
from tests.opsnn.math.helpers import (FLOAT_NP, LAYOUTS, SETTINGS, check_close, expect_error, make_input, out_tensor,
                                      run, shapes, upload)

P, L = opsnn.aclnnPreluGetWorkspaceSize, opsnn.aclnnPrelu


@pytest.mark.parametrize("wshape", [(16,), (1,), (16, 9, 1)], ids=["channel", "one", "broadcast"])
@pytest.mark.parametrize("dt", [np.float32, np.float16], ids=["f32", "f16"])
def test_many_blocks_and_edge_tiles(npu, rng, wshape, dt):
    x = rng.standard_normal((5, 16, 9, 29)).astype(dt)
    w = rng.uniform(0.05, 0.5, wshape).astype(dt)
    tx, tw = npu.to_device(x)[1], npu.to_device(w)[1]
    tout, read = out_tensor(npu, x.shape, dt, False)
    ex = run(npu, P, L, tx, tw, tout)
    spec = ex.kernels[0].spec
    assert spec.block_dim >= 2 and sum(b.tile_count for b in spec.blocks) > spec.block_dim
    check_close(read(), prelu_golden(x, w), dt)


@SETTINGS
@given(shape=shapes(), dt=st.sampled_from(FLOAT_NP), layout=st.sampled_from(LAYOUTS), strided=st.booleans(),
       channel=st.booleans(), seed=st.integers(0, 2**31 - 1))
def test_prelu_property(npu, shape, dt, layout, strided, channel, seed):
    rng = np.random.default_rng(seed)
    x, tx = make_input(npu, rng, shape, dt, layout)
    wshape = (shape[1],) if channel and len(shape) >= 2 else tuple(1 if rng.random() < 0.5 else d for d in shape)
    w = rng.uniform(-1, 1, wshape).astype(dt)
    tw = upload(npu, w, "strided", rng)
    tout, read = out_tensor(npu, x.shape, dt, strided)
    run(npu, P, L, tx, tw, tout)
    check_close(read(), prelu_golden(x, w), dt)


def test_errors(npu):
    x = npu.empty((2, 3, 4), np.float32)[1]
    w = npu.empty((3,), np.float32)[1]
    expect_error(P, (None, w, x), 161001, "aclnnPrelu", "self is null")
    expect_error(P, (x, None, x), 161001, "weight is null")
    expect_error(P, (x, w, None), 161001, "out is null")
    expect_error(P, (x, np.ones(3), x), 161002, "weight must be an aclTensor")
    xi = npu.empty((2, 3, 4), np.int32)[1]
    expect_error(P, (xi, w, xi), 161002, "self dtype ACL_INT32 not supported")
    expect_error(P, (x, npu.empty((3,), np.float16)[1], x), 161002, "weight dtype ACL_FLOAT16 not supported")
    expect_error(P, (x, w, npu.empty((2, 3, 4), np.float16)[1]), 161002, "out dtype ACL_FLOAT16 not supported")
    expect_error(P, (x, w, npu.empty((2, 4, 3), np.float32)[1]), 161002, "out shape [2, 4, 3]")
    expect_error(P, (x, npu.empty((5,), np.float32)[1], x), 161002, "weight shape [5] is neither")
