"""aclnnBatchNorm with training=True: tiling without a device, one status per bad input,
numbers against the float64 golden on the tiny chip (many and edge tiles), hypothesis
over shapes and dtypes."""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import opsnn
from npu_sim import PRESETS
from npu_sim.program import Pipe
from opsnn.norm.batch_norm.golden import batch_norm_training_golden
from opsnn.norm.batch_norm.kernel import training_tile_programs
from opsnn.norm.batch_norm.tiling import batch_norm_training_tiling
from opsnn.norm.batch_norm.tiling_data import (PARAM_BYTES_PER_CHANNEL, PARTIAL_BYTES_PER_CHANNEL,
                                               BatchNormTrainingTilingKey)
from tests.conftest import rel_err

TINY, B2 = PRESETS["tiny"], PRESETS["ascend910b2"]
BF16 = np.dtype(ml_dtypes.bfloat16)


# ------------------------------------------------------------------ tiling (no device)
def _bytes(spec, pipe):
    return sum(t.count * (s.nbytes if pipe is not Pipe.VECTOR else s.vector_bytes)
               for p in spec.blocks for t in p.tiles for s in t.stages if s.pipe is pipe)


@pytest.mark.parametrize("chip", [TINY, B2], ids=lambda c: c.name)
@pytest.mark.parametrize("shape", [(2, 8, 16, 16), (3, 5), (4, 3, 7), (1, 2, 3, 4, 5)], ids=str)
def test_training_tiling_two_passes_cover_every_element(chip, shape):
    res = batch_norm_training_tiling(chip, shape, 4)
    td = res.data
    n = int(np.prod(shape))
    c = shape[1]
    assert res.strategy == "two_pass" and res.tiling_key == BatchNormTrainingTilingKey.TRAINING_REDUCE
    assert td.count * c == n and td.channels == c
    for v in (td.reduce, td.update):
        assert v.total_units == n and v.per_block * (v.block_dim - 1) < n <= v.per_block * v.block_dim
        assert v.block_dim <= chip.vector_core_count and v.ub_bytes_used <= chip.ub_bytes
    # workspace: every reduce block's fp32 (sum, sum of squares) of all C channels, 32 B aligned
    need = td.reduce.block_dim * PARTIAL_BYTES_PER_CHANNEL * c
    assert need <= res.workspace_bytes < need + 32 and res.workspace_bytes % 32 == 0
    specs = training_tile_programs(td, {})
    assert [s.tiling_key for s in specs] == [BatchNormTrainingTilingKey.TRAINING_REDUCE,
                                            BatchNormTrainingTilingKey.TRAINING_UPDATE]
    red, upd = specs
    # pass 1 reads x once and writes nothing per element; pass 2 reads x again and writes y
    assert _bytes(red, Pipe.MTE2) == 4 * n and _bytes(red, Pipe.MTE3) == 0
    load = td.reduce.block_dim * PARTIAL_BYTES_PER_CHANNEL * c + PARAM_BYTES_PER_CHANNEL * c
    assert _bytes(upd, Pipe.MTE2) == 4 * n + td.update.block_dim * load
    assert _bytes(upd, Pipe.MTE3) == 4 * n


def test_training_tiling_many_tiles_on_tiny():
    res = batch_norm_training_tiling(TINY, (4, 8, 32, 32), 4)
    v = res.data.update
    assert v.block_dim > 1 and v.per_block > v.ub_factor  # several blocks, several UB tiles each


# ------------------------------------------------------------------ numbers (tiny chip)
def run_train(npu, x, w, b, rm, rv, momentum=0.1, eps=1e-5, save_dtype=None):
    c = x.shape[1]
    sd = save_dtype or x.dtype
    tx = npu.to_device(x)[1]
    tw = npu.to_device(w)[1] if w is not None else None
    tb = npu.to_device(b)[1] if b is not None else None
    prm, trm = npu.to_device(rm) if rm is not None else (None, None)
    prv, trv = npu.to_device(rv) if rv is not None else (None, None)
    po, to = npu.empty(x.shape, x.dtype)
    psm, tsm = npu.empty((c,), sd)
    psv, tsv = npu.empty((c,), sd)
    prep = opsnn.aclnnBatchNormGetWorkspaceSize(tx, tw, tb, trm, trv, True, momentum, eps, to, tsm, tsv)
    assert prep[2] == 0, opsnn.aclGetRecentErrMsg()
    npu.run(prep, opsnn.aclnnBatchNorm)
    host = [npu.to_host(po, x.shape, x.dtype), npu.to_host(psm, (c,), sd), npu.to_host(psv, (c,), sd)]
    host.append(npu.to_host(prm, (c,), rm.dtype) if rm is not None else None)
    host.append(npu.to_host(prv, (c,), rv.dtype) if rv is not None else None)
    return host, prep


@pytest.mark.parametrize("shape", [(6, 5), (2, 5, 7), (2, 3, 9, 11), (2, 3, 4, 5, 6)], ids=lambda s: f"{len(s)}d")
@pytest.mark.parametrize("affine", [True, False])
def test_training_float32(npu, rng, shape, affine):
    c = shape[1]
    x = (rng.standard_normal(shape) * 3 + 1).astype(np.float32)
    w, b = (rng.standard_normal(c).astype(np.float32) for _ in range(2)) if affine else (None, None)
    rm, rv = rng.standard_normal(c).astype(np.float32), rng.uniform(0.5, 2, c).astype(np.float32)
    got, _ = run_train(npu, x, w, b, rm, rv, momentum=0.3, eps=1e-3)
    want = batch_norm_training_golden(x, w, b, rm, rv, 0.3, 1e-3)
    for g, r in zip(got, want):
        assert rel_err(g, r) < 1e-5


def test_training_many_tiles_and_blocks_on_tiny(npu, rng):
    x = rng.standard_normal((4, 8, 32, 32)).astype(np.float32)
    rm, rv = np.zeros(8, np.float32), np.ones(8, np.float32)
    got, prep = run_train(npu, x, None, None, rm, rv)
    assert len(prep[1].kernels) == 2 and prep[0] > 0
    want = batch_norm_training_golden(x, None, None, rm, rv)
    for g, r in zip(got, want):
        assert rel_err(g, r) < 1e-5


def test_training_without_running_stats(npu, rng):
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    got, _ = run_train(npu, x, None, None, None, None)
    want = batch_norm_training_golden(x)
    assert rel_err(got[0], want[0]) < 1e-5 and rel_err(got[2], want[2]) < 1e-5
    assert got[3] is None and got[4] is None


def test_training_one_element_per_channel(npu, rng):
    """n = 1 per channel (edge): var 0, output = bias, running var keeps the batch var (0)."""
    x = rng.standard_normal((1, 3)).astype(np.float32)
    b = np.array([1, 2, 3], np.float32)
    got, _ = run_train(npu, x, None, b, np.zeros(3, np.float32), np.ones(3, np.float32), momentum=0.5)
    assert np.allclose(got[0], b[None]) and np.allclose(got[2], 0) and np.allclose(got[4], 0.5)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(shape=st.lists(st.integers(1, 6), min_size=2, max_size=5).map(tuple),
       dtype=st.sampled_from([np.float32, np.float16, BF16]), momentum=st.floats(0, 1))
@example(shape=(1, 4), dtype=np.float32, momentum=0.0)   # one value per channel: var = 0 (found in CI)
def test_training_hypothesis(npu, shape, dtype, momentum):
    rng = np.random.default_rng(7)
    c = shape[1]
    x = rng.standard_normal(shape).astype(dtype)
    w, b = rng.standard_normal(c).astype(np.float32), rng.standard_normal(c).astype(np.float32)
    rm, rv = rng.standard_normal(c).astype(np.float32), rng.uniform(0.5, 2, c).astype(np.float32)
    got, _ = run_train(npu, x, w, b, rm, rv, momentum=momentum, save_dtype=np.float32)
    want = batch_norm_training_golden(x, w, b, rm, rv, momentum)
    # the kernel applies x * scale + shift with scale = w / sqrt(var + eps) and shift = b - mean * scale (fp32,
    # as the fused update does): when var is small against eps (n = 1 per channel: var = 0) the two terms
    # cancel, so fp32's tolerance grows with |mean| * |scale| against the output's size
    x64 = x.astype(np.float64)
    axes = tuple(i for i in range(x64.ndim) if i != 1)
    amp = np.abs(x64.mean(axes)) * np.abs(w) / np.sqrt(x64.var(axes) + 1e-5)
    tol = (1e-5 * (1 + float(amp.max()) / max(float(np.abs(want[0]).max()), 1e-30))) if dtype == np.float32 else 2e-2
    for g, r in zip(got, want):
        assert rel_err(g, r) < tol


# ------------------------------------------------------------------ statuses
class _Call:
    def __init__(self, npu):
        e = npu.empty
        self.args = dict(input=e((2, 3, 4, 4), np.float32)[1], weight=None, bias=None,
                         runningMean=e((3,), np.float32)[1], runningVar=e((3,), np.float32)[1], training=True,
                         momentum=0.1, eps=1e-5, output=e((2, 3, 4, 4), np.float32)[1],
                         saveMean=e((3,), np.float32)[1], saveInvstd=e((3,), np.float32)[1])

    def __call__(self, **over):
        ws, ex, ret = opsnn.aclnnBatchNormGetWorkspaceSize(**dict(self.args, **over))
        assert ex is None and ws == 0
        return ret, opsnn.aclGetRecentErrMsg()


def test_training_valid_baseline_and_optional_running_stats(npu):
    c = _Call(npu)
    for over in ({}, {"runningMean": None, "runningVar": None}):
        ws, ex, ret = opsnn.aclnnBatchNormGetWorkspaceSize(**dict(c.args, **over))
        assert ret == 0 and ex is not None and ws > 0


@pytest.mark.parametrize("name", ["input", "output", "saveMean", "saveInvstd"])
def test_training_null_161001(npu, name):
    ret, msg = _Call(npu)(**{name: None})
    assert ret == 161001 and f"{name} is null" in msg


@pytest.mark.parametrize("over, text", [
    (lambda n: dict(saveMean=n.empty((3,), np.int32)[1]), "saveMean dtype ACL_INT32 not supported"),
    (lambda n: dict(saveInvstd=n.empty((3,), np.float64)[1]), "saveInvstd dtype ACL_DOUBLE not supported"),
    (lambda n: dict(saveMean=n.empty((4,), np.float32)[1]), "saveMean shape [4] does not match expected [3]"),
    (lambda n: dict(saveInvstd=n.empty((1, 3), np.float32)[1]), "saveInvstd shape [1, 3] does not match"),
    (lambda n: dict(runningVar=n.empty((2,), np.float32)[1]), "runningVar shape [2] does not match expected [3]"),
    (lambda n: dict(momentum="fast"), "eps and momentum must be numbers"),
    (lambda n: dict(eps=-1.0), "eps must be >= 0"),
], ids=lambda v: v if isinstance(v, str) else "")
def test_training_invalid_161002(npu, over, text):
    ret, msg = _Call(npu)(**over(npu))
    assert ret == 161002, msg
    assert text in msg
