"""aclnnBatchNorm (inference) against a float64 reference on the tiny chip."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import opsnn
from npu_sim.program import Pipe
from opsnn.norm.batch_norm.golden import batch_norm_inference_golden
from tests.conftest import rel_err

BF16 = np.dtype(ml_dtypes.bfloat16)


def _params(rng, c, dtype=np.float32):
    mean = rng.standard_normal(c).astype(dtype)
    var = rng.uniform(0.2, 3.0, c).astype(dtype)
    weight = rng.standard_normal(c).astype(dtype)
    bias = rng.standard_normal(c).astype(dtype)
    return weight, bias, mean, var


def run_bn(npu, x, weight, bias, mean, var, eps=1e-5, in_place=False):
    px, tx = npu.to_device(x)
    tw = npu.to_device(weight)[1] if weight is not None else None
    tb = npu.to_device(bias)[1] if bias is not None else None
    tm = npu.to_device(mean)[1]
    tv = npu.to_device(var)[1]
    po, to = (px, tx) if in_place else npu.empty(x.shape, x.dtype)
    prep = opsnn.aclnnBatchNormGetWorkspaceSize(tx, tw, tb, tm, tv, False, 0.1, eps, to, None, None)
    npu.run(prep, opsnn.aclnnBatchNorm)
    return npu.to_host(po, x.shape, x.dtype), prep[1]


@pytest.mark.parametrize("shape", [(6, 5), (2, 5, 7), (2, 3, 9, 11), (2, 3, 4, 5, 6)], ids=lambda s: f"{len(s)}d")
@pytest.mark.parametrize("affine", [True, False])
def test_bn_float32(npu, rng, shape, affine):
    x = rng.standard_normal(shape).astype(np.float32) * 3 + 1
    w, b, m, v = _params(rng, shape[1])
    if not affine:
        w = b = None
    got, _ = run_bn(npu, x, w, b, m, v, eps=1e-3)
    assert rel_err(got, batch_norm_inference_golden(x, m, v, w, b, 1e-3)) < 1e-5


@pytest.mark.parametrize("dtype", [np.float16, BF16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("param_dtype", ["same", "fp32"])
def test_bn_half(npu, rng, dtype, param_dtype):
    x = rng.standard_normal((2, 4, 6, 5)).astype(dtype)
    ps = _params(rng, 4, dtype if param_dtype == "same" else np.float32)
    got, _ = run_bn(npu, x, *ps)
    assert not np.isnan(got.astype(np.float32)).any()
    w, b, m, v = ps
    assert rel_err(got, batch_norm_inference_golden(x, m, v, w, b)) < 1e-2


def test_bn_many_tiles_and_blocks_on_tiny(npu, rng):
    x = rng.standard_normal((2, 8, 16, 16)).astype(np.float32)
    w, b, m, v = _params(rng, 8)
    got, ex = run_bn(npu, x, w, b, m, v)
    assert rel_err(got, batch_norm_inference_golden(x, m, v, w, b)) < 1e-5
    td = ex.info["tiling"]
    spec = ex.kernels[0].spec
    assert ex.info["tiling_key"] == 0 and td["block_dim"] == 4
    assert td["total_units"] == x.size and td["ub_factor"] < td["per_block"]
    assert all(p.tile_count > 1 for p in spec.blocks)
    # vector: two passes per element plus the per-channel fold on each block's first tile
    vec = sum(t.count * s.vector_bytes for p in spec.blocks for t in p.tiles for s in t.stages
              if s.pipe == Pipe.VECTOR)
    mte2 = sum(t.count * s.nbytes for p in spec.blocks for t in p.tiles for s in t.stages if s.pipe == Pipe.MTE2)
    assert vec > 2 * 4 * x.size and mte2 > x.nbytes
    assert mte2 - x.nbytes == vec - 2 * x.nbytes == 4 * 16 * 5  # each block spans 5 channels (4+1 partial)


def test_bn_many_channels_streams_params(npu, rng):
    """[N, C] with C too large for resident parameters on the tiny chip: tiling key 1."""
    x = rng.standard_normal((3, 600)).astype(np.float32)
    w, b, m, v = _params(rng, 600)
    got, ex = run_bn(npu, x, w, b, m, v)
    assert ex.info["tiling_key"] == 1
    assert rel_err(got, batch_norm_inference_golden(x, m, v, w, b)) < 1e-5


def test_bn_in_place(npu, rng):
    x = rng.standard_normal((2, 3, 5, 5)).astype(np.float32)
    w, b, m, v = _params(rng, 3)
    got, _ = run_bn(npu, x, w, b, m, v, in_place=True)
    assert rel_err(got, batch_norm_inference_golden(x, m, v, w, b)) < 1e-5


def test_bn_save_tensors_accepted_and_untouched(npu, rng):
    x = rng.standard_normal((1, 3, 4, 4)).astype(np.float32)
    w, b, m, v = _params(rng, 3)
    _, tx = npu.to_device(x)
    ts = [npu.to_device(a)[1] for a in (w, b, m, v)]
    po, to = npu.empty(x.shape, np.float32)
    psm, tsm = npu.to_device(np.full(3, 7.0, np.float32))
    psi, tsi = npu.to_device(np.full(3, 7.0, np.float32))
    npu.run(opsnn.aclnnBatchNormGetWorkspaceSize(tx, *ts, False, 0.1, 1e-5, to, tsm, tsi), opsnn.aclnnBatchNorm)
    assert rel_err(npu.to_host(po, x.shape, np.float32), batch_norm_inference_golden(x, m, v, w, b)) < 1e-5
    assert (npu.to_host(psm, (3,), np.float32) == 7).all() and (npu.to_host(psi, (3,), np.float32) == 7).all()


# ---------------------------------------------------------------------------- errors
class _Call:
    def __init__(self, npu):
        e = npu.empty
        self.args = dict(input=e((2, 3, 4, 4), np.float32)[1], weight=e((3,), np.float32)[1],
                         bias=e((3,), np.float32)[1], runningMean=e((3,), np.float32)[1],
                         runningVar=e((3,), np.float32)[1], training=False, momentum=0.1, eps=1e-5,
                         output=e((2, 3, 4, 4), np.float32)[1], saveMean=None, saveInvstd=None)

    def __call__(self, **over):
        ws, ex, ret = opsnn.aclnnBatchNormGetWorkspaceSize(**dict(self.args, **over))
        assert ex is None and ws == 0
        return ret, opsnn.aclGetRecentErrMsg()


def test_valid_baseline(npu):
    ws, ex, ret = opsnn.aclnnBatchNormGetWorkspaceSize(**_Call(npu).args)
    assert ret == 0 and ex is not None and ws == 0


@pytest.mark.parametrize("name", ["input", "output", "runningMean", "runningVar"])
def test_null_161001(npu, name):
    ret, msg = _Call(npu)(**{name: None})
    assert ret == opsnn.ACLNN_ERR_PARAM_NULLPTR == 161001
    assert f"aclnnBatchNorm: {name} is null" in msg


def _t(npu, shape, dtype=np.float32):
    return npu.empty(shape, dtype)[1]


@pytest.mark.parametrize("over, text", [
    (lambda n: dict(input=np.zeros((2, 3, 4, 4), np.float32)), "input must be an aclTensor"),
    (lambda n: dict(weight=[1.0, 1.0, 1.0]), "weight must be an aclTensor"),
    (lambda n: dict(input=_t(n, (2, 3, 4, 4), np.int32)), "input dtype ACL_INT32 not supported"),
    (lambda n: dict(output=_t(n, (2, 3, 4, 4), np.float16)), "output dtype ACL_FLOAT16 differs from input"),
    (lambda n: dict(runningVar=_t(n, (3,), np.float64)), "runningVar dtype ACL_DOUBLE not supported"),
    (lambda n: dict(training=True, saveMean=_t(n, (3,)), saveInvstd=_t(n, (4,))),
     "saveInvstd shape [4] does not match expected [3]"),
    (lambda n: dict(input=_t(n, (3,)), output=_t(n, (3,))), "input must be 2/3/4/5-D"),
    (lambda n: dict(input=_t(n, (1, 3, 1, 1, 1, 2)), output=_t(n, (1, 3, 1, 1, 1, 2))), "input must be 2/3/4/5-D"),
    (lambda n: dict(output=_t(n, (2, 3, 4, 5))), "output shape [2, 3, 4, 5] does not match expected [2, 3, 4, 4]"),
    (lambda n: dict(weight=_t(n, (4,))), "weight shape [4] does not match expected [3]"),
    (lambda n: dict(runningMean=_t(n, (1, 3))), "runningMean shape [1, 3] does not match expected [3]"),
    (lambda n: dict(eps=-1.0), "eps must be >= 0"),
    (lambda n: dict(eps="small"), "eps and momentum must be numbers"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_invalid_161002(npu, over, text):
    ret, msg = _Call(npu)(**over(npu))
    assert ret == opsnn.ACLNN_ERR_PARAM_INVALID == 161002, msg
    assert text in msg


def test_check_order(npu):
    call = _Call(npu)
    ret, msg = call(runningVar=None, input=_t(npu, (2, 3, 4, 4), np.int32))
    assert ret == 161001 and "runningVar is null" in msg
    ret, msg = call(training=True, weight=_t(npu, (5,)))
    assert ret == 161001 and "saveMean is null" in msg  # training: the save tensors are required
    ret, msg = call(input=_t(npu, (2, 3), np.int32))
    assert ret == 161002 and "dtype ACL_INT32" in msg
