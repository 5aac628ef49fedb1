"""Tile programs of the arithmetic kernels through phase 1: what each kernel charges per element
(bytes in and out, Vector passes incl. fused casts and broadcasts), UB budget and
block/tile counts on the tiny chip and the 910B2 preset."""
import numpy as np
import pytest

import opsnn
from npu_sim.chips import get_chip
from npu_sim.program import Pipe
from opsnn.base.dtypes import aclDataType as T

from ..helpers import meta, ntiles, prepare_spec, totals


@pytest.mark.parametrize("chip", ["tiny", "ascend910b2"])
def test_add_fp16_with_fp32_compute(chip, request):
    """fp16 + fp16 -> fp16 computes in fp32: 2 input casts + 1 output cast + 1 add =
    4 passes x 4 B per element on VECTOR; MTE2 2 x 2 B, MTE3 2 B per element."""
    request.getfixturevalue("npu" if chip == "tiny" else "npu910")
    n = 64 * 1000
    a, o = meta((64, 1000), T.ACL_FLOAT16), meta((64, 1000), T.ACL_FLOAT16)
    spec = prepare_spec(opsnn.aclnnAddGetWorkspaceSize, a, a, 1.0, o)
    t = totals(spec)
    assert abs(t[Pipe.MTE2] - 4 * n) <= ntiles(spec) * 4
    assert abs(t[Pipe.MTE3] - 2 * n) <= ntiles(spec) * 2
    assert abs(t[Pipe.VECTOR] - 16 * n) <= ntiles(spec) * 16
    assert spec.args["casts"] == 3 and spec.args["broadcasts"] == 0
    c = get_chip(chip)
    assert spec.buffers[next(iter(spec.buffers))] <= c.ub_bytes
    assert 2 <= spec.block_dim <= c.vector_core_count
    if chip == "tiny":
        assert ntiles(spec) > 4 * spec.block_dim   # 16 KiB of UB: many tiles per block


def test_broadcast_operand_is_read_at_its_own_size(npu):
    """A [1000] bias added to [64, 1000]: MTE2 reads 64000 + 1000 floats; one extra
    broadcast pass on VECTOR; alpha != 1 adds a pass."""
    x, b, o = meta((64, 1000), T.ACL_FLOAT), meta((1000,), T.ACL_FLOAT), meta((64, 1000), T.ACL_FLOAT)
    spec = prepare_spec(opsnn.aclnnAddGetWorkspaceSize, x, b, 2.0, o)
    t = totals(spec)
    assert abs(t[Pipe.MTE2] - 4 * 65000) <= ntiles(spec) * 8
    assert abs(t[Pipe.VECTOR] - 4 * 64000 * 3) <= ntiles(spec) * 12   # add + broadcast + alpha Muls
    assert spec.args["broadcasts"] == 1 and spec.args["alpha"] == 2.0


def test_empty_tensor_prepares_no_kernel(npu):
    x = meta((0, 5), T.ACL_FLOAT)
    ws, ex, ret = opsnn.aclnnMulGetWorkspaceSize(x, x, x)
    assert (ret, ws, ex.kernels, ex.info["strategy"]) == (0, 0, [], "empty")
    assert opsnn.aclnnMul(0, 0, ex, 0) == 0


def test_integer_ops_compute_in_their_own_type(npu):
    a, o = meta((100,), T.ACL_INT32), meta((100,), T.ACL_INT64)
    ws, ex, ret = opsnn.aclnnMulGetWorkspaceSize(a, a, o)
    assert ret == 0 and ex.info["compute_dtype"] == "ACL_INT32"
    assert ex.kernels[0].spec.args["casts"] == 1          # only the widening store
    np.testing.assert_equal(ex.info["promoted_dtype"], "ACL_INT32")
