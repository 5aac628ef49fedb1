"""The executor cache: a hit skips phase 1 and still gives the right numbers on new
buffers; calls that differ in anything the kernel depends on never share a plan.

References: float64 numpy for the numbers; for "a hit equals a fresh phase 1", the
same op run with the cache off (bit-identical)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import opsnn
from acl_runtime import acl
from opsnn.base.cache import CacheVerifyError, ExecutorCache
from opsnn.base.executor import aclOpExecutor
from opsnn.base.op import prepare
from tests.conftest import rel_err

from .conftest import F32, ND, sync


def stats():
    return opsnn.executor_cache_stats()


# ---------------------------------------------------------------- hits on new buffers
def _softmax_ref(x):
    x = x.astype(np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _layer_norm_ref(x, w, b):
    x = x.astype(np.float64)
    return (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5) * w + b


def _gelu_ref(x):
    x = x.astype(np.float64)
    return 0.5 * x * (1 + np.vectorize(math.erf)(x / math.sqrt(2)))


CASES = {
    # name: (input shapes, out shape, phase 1 (tensors, out) -> result, phase 2, float64 reference, tolerance)
    "Add": ([(3, 40), (3, 40)], (3, 40), lambda t, o: opsnn.aclnnAddGetWorkspaceSize(t[0], t[1], 0.5, o),
            opsnn.aclnnAdd, lambda x: x[0].astype(np.float64) + 0.5 * x[1], 1e-6),
    "Matmul": ([(24, 40), (40, 20)], (24, 20), lambda t, o: opsnn.aclnnMatmulGetWorkspaceSize(t[0], t[1], o, 0),
               opsnn.aclnnMatmul, lambda x: x[0].astype(np.float64) @ x[1], 1e-5),
    "Softmax": ([(6, 32)], (6, 32), lambda t, o: opsnn.aclnnSoftmaxGetWorkspaceSize(t[0], -1, o),
                opsnn.aclnnSoftmax, lambda x: _softmax_ref(x[0]), 1e-5),
    "LayerNorm": ([(5, 48), (48,), (48,)], (5, 48),
                  lambda t, o: opsnn.aclnnLayerNormGetWorkspaceSize(t[0], opsnn.aclCreateIntArray([48]), t[1], t[2],
                                                                    1e-5, o),
                  opsnn.aclnnLayerNorm, lambda x: _layer_norm_ref(*x), 1e-5),
    "Gelu": ([(4, 32)], (4, 32), lambda t, o: opsnn.aclnnGeluGetWorkspaceSize(t[0], o), opsnn.aclnnGelu,
             lambda x: _gelu_ref(x[0]), 1e-3),
}


def _run_case(npu, rng, name):
    shapes, out_shape, p1, p2, ref, _ = CASES[name]
    xs = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    ts = [npu.to_device(x)[1] for x in xs]
    pout, tout = npu.empty(out_shape, np.float32)
    ws, ex, ret = p1(ts, tout)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    wptr = npu.malloc(ws) if ws else 0
    assert p2(wptr, ws, ex, 0) == 0, opsnn.aclGetRecentErrMsg()
    return xs, pout, ex


@pytest.mark.parametrize("name", sorted(CASES))
def test_hit_on_new_buffers_gives_the_right_numbers(npu, rng, name):
    """Second call: same metadata, new buffers -> a hit sharing the first plan; both
    outputs match float64, and the first output is not touched by the second run."""
    _, out_shape, _, _, ref, tol = CASES[name]
    xs1, p1, ex1 = _run_case(npu, rng, name)
    sync()
    first = npu.to_host(p1, out_shape, np.float32)
    assert stats()["misses"] == 1 and stats()["hits"] == 0
    xs2, p2, ex2 = _run_case(npu, rng, name)
    assert stats()["hits"] == 1 and ex2.plan is ex1.plan
    sync()
    assert rel_err(first, ref(xs1)) < tol
    assert rel_err(npu.to_host(p2, out_shape, np.float32), ref(xs2)) < tol
    np.testing.assert_array_equal(npu.to_host(p1, out_shape, np.float32), first)


@pytest.mark.parametrize("name", sorted(CASES))
def test_hit_is_bit_identical_to_cache_off(npu, name):
    """The numbers of a cache hit equal those of a fresh phase 1 with the cache off."""
    _, out_shape, _, _, _, _ = CASES[name]
    outs = []
    for enabled in (True, True, False):
        opsnn.set_executor_cache(enabled=enabled)
        _, p, _ = _run_case(npu, np.random.default_rng(7), name)
        sync()
        outs.append(npu.to_host(p, out_shape, np.float32))
    np.testing.assert_array_equal(outs[1], outs[2])


# ---------------------------------------------------------------- what the key separates
def _tensor(npu, shape, dtype=np.float32, strides=None, offset=0, fmt=ND, storage=None):
    storage = storage or shape
    ptr = npu.malloc(max(int(np.prod(storage)), 1) * np.dtype(dtype).itemsize)
    from opsnn.base.dtypes import from_numpy_dtype
    t = opsnn.aclCreateTensor(shape, from_numpy_dtype(np.dtype(dtype)), strides, offset, fmt, storage, ptr)
    assert t is not None, opsnn.aclGetRecentErrMsg()
    return t


def _assert_not_shared(first, second):
    """Run phase 1 ``first()`` then ``second()``: two misses, two distinct plans."""
    opsnn.clear_executor_cache()
    _, e1, r1 = first()
    _, e2, r2 = second()
    assert r1 == 0 and r2 == 0, opsnn.aclGetRecentErrMsg()
    assert e1.plan is not e2.plan
    assert stats()["misses"] == 2 and stats()["hits"] == 0


def test_stride_offset_dtype_format_storage_never_share(npu):
    n = (4, 16)
    a, b, c = (_tensor(npu, n) for _ in range(3))
    add = opsnn.aclnnAddGetWorkspaceSize
    # strides: a transposed view of a [16, 4] storage
    at = _tensor(npu, n, strides=(1, 4), storage=(16, 4))
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(at, b, 1.0, c))
    # offset: rows 1.. of a [5, 16] storage
    ao = _tensor(npu, n, offset=16, storage=(5, 16))
    a5 = _tensor(npu, n, storage=(5, 16))
    _assert_not_shared(lambda: add(a5, b, 1.0, c), lambda: add(ao, b, 1.0, c))
    # storage shape alone
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(a5, b, 1.0, c))
    # dtype
    a16 = _tensor(npu, n, np.float16)
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(a16, b, 1.0, c))
    # format
    anchw = _tensor(npu, n, fmt=opsnn.aclFormat.ACL_FORMAT_NCHW)
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(anchw, b, 1.0, c))


def test_attributes_never_share(npu):
    """alpha 1.0 vs 2.0, 1 (int) vs 1.0 (float), 0.0 vs -0.0, a Python float vs an
    aclScalar; Softmax dim; Matmul cubeMathType."""
    a, b, c = (_tensor(npu, (4, 16)) for _ in range(3))
    add = opsnn.aclnnAddGetWorkspaceSize
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(a, b, 2.0, c))
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(a, b, 1, c))
    _assert_not_shared(lambda: add(a, b, 0.0, c), lambda: add(a, b, -0.0, c))
    _assert_not_shared(lambda: add(a, b, 1.0, c), lambda: add(a, b, opsnn.aclCreateScalar(1.0, F32), c))
    _assert_not_shared(lambda: opsnn.aclnnSoftmaxGetWorkspaceSize(a, -1, c),
                       lambda: opsnn.aclnnSoftmaxGetWorkspaceSize(a, 0, c))
    x, w, y = _tensor(npu, (16, 32)), _tensor(npu, (32, 8)), _tensor(npu, (16, 8))
    mm = opsnn.aclnnMatmulGetWorkspaceSize
    _assert_not_shared(lambda: mm(x, w, y, 0), lambda: mm(x, w, y, 1))


def test_same_scalar_attribute_values_do_hit(npu):
    """Equal aclScalar objects (new objects, same dtype and value) share a plan."""
    a, b, c = (_tensor(npu, (4, 16)) for _ in range(3))
    _, e1, _ = opsnn.aclnnAddGetWorkspaceSize(a, b, opsnn.aclCreateScalar(2.0, F32), c)
    _, e2, _ = opsnn.aclnnAddGetWorkspaceSize(a, b, opsnn.aclCreateScalar(2.0, F32), c)
    assert e1.plan is e2.plan and stats()["hits"] == 1


def test_aliasing_never_shares_and_in_place_is_right(npu, rng):
    """out is self (in place) vs a distinct out of the same metadata: different plans,
    and each writes where it should."""
    x = rng.standard_normal((4, 16)).astype(np.float32)
    y = rng.standard_normal((4, 16)).astype(np.float32)
    pa, ta = npu.to_device(x)
    pb, tb = npu.to_device(y)
    pc, tc = npu.empty(x.shape, np.float32)
    add = opsnn.aclnnAddGetWorkspaceSize
    _assert_not_shared(lambda: add(ta, tb, 1.0, tc), lambda: add(ta, tb, 1.0, ta))
    opsnn.clear_executor_cache()
    npu.run(add(ta, tb, 1.0, tc), opsnn.aclnnAdd)
    npu.run(add(ta, tb, 1.0, ta), opsnn.aclnnAdd)          # a += b, after c = a + b
    ref = x.astype(np.float64) + y
    assert rel_err(npu.to_host(pc, x.shape, np.float32), ref) < 1e-6
    assert rel_err(npu.to_host(pa, x.shape, np.float32), ref) < 1e-6


def test_deterministic_flag_and_chip_are_in_the_key(npu):
    a, b, c = (_tensor(npu, (4, 16)) for _ in range(3))
    add = opsnn.aclnnAddGetWorkspaceSize
    _, e1, _ = add(a, b, 1.0, c)
    assert acl.rt.set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 1) == 0
    assert acl.rt.get_sys_param_opt(acl.ACL_OPT_DETERMINISTIC) == (1, 0)
    _, e2, _ = add(a, b, 1.0, c)
    assert e2.plan is not e1.plan and stats()["misses"] == 2
    assert acl.rt.ctx_set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 0) == 0
    _, e3, _ = add(a, b, 1.0, c)
    assert e3.plan is e1.plan
    # re-initialising on the same chip keeps plans; another chip drops them
    acl.finalize()
    acl.init(chip="tiny")
    acl.rt.set_device(0)
    _, e4, _ = add(a, b, 1.0, c)
    assert e4.plan is e1.plan
    acl.finalize()
    acl.init(chip="ascend910b4")
    acl.rt.set_device(0)
    _, e5, _ = add(a, b, 1.0, c)
    assert e5.plan is not e1.plan and e5.plan.chip.name == "ascend910b4"


def test_sys_param_errors(npu):
    assert acl.rt.set_sys_param_opt(7, 1) == acl.ACL_ERROR_INVALID_PARAM
    assert "aclSysParamOpt" in acl.get_recent_err_msg()
    assert acl.rt.set_sys_param_opt(acl.ACL_OPT_DETERMINISTIC, 2) == acl.ACL_ERROR_INVALID_PARAM
    assert "0 or 1" in acl.get_recent_err_msg()
    assert acl.rt.get_sys_param_opt(9) == (0, acl.ACL_ERROR_INVALID_PARAM)


# ---------------------------------------------------------------- bookkeeping and switches
def test_lru_eviction_and_stats(npu):
    opsnn.set_executor_cache(capacity=2)
    ts = {n: (_tensor(npu, (n,)), _tensor(npu, (n,))) for n in (8, 16, 24)}
    relu = opsnn.aclnnReluGetWorkspaceSize
    for n in (8, 16, 24):                   # 8 is evicted by 24
        relu(*ts[n])
    relu(*ts[16])                           # hit
    relu(*ts[8])                            # miss again; evicts 24 (16 was used more recently)
    relu(*ts[16])                           # hit
    st = stats()
    assert (st["hits"], st["misses"], st["evictions"], st["size"], st["capacity"]) == (2, 4, 2, 2, 2)
    assert st["hit_rate"] == pytest.approx(2 / 6)
    assert set(st) == {"enabled", "verify", "size", "capacity", "hits", "misses", "evictions", "uncacheable",
                       "hit_rate"}
    opsnn.set_executor_cache(capacity=1)    # shrinking evicts
    assert stats()["size"] == 1 and stats()["evictions"] == 3
    with pytest.raises(ValueError, match=">= 1"):
        opsnn.set_executor_cache(capacity=0)


def test_switch_off_and_environment(npu, monkeypatch):
    a, b = _tensor(npu, (8,)), _tensor(npu, (8,))
    prev = opsnn.set_executor_cache(enabled=False)
    assert prev["enabled"] is True
    _, e1, _ = opsnn.aclnnReluGetWorkspaceSize(a, b)
    _, e2, _ = opsnn.aclnnReluGetWorkspaceSize(a, b)
    assert e1.plan is not e2.plan and stats()["hits"] == stats()["misses"] == 0 and stats()["size"] == 0
    monkeypatch.setenv("NPU_SIM_EXECUTOR_CACHE", "0")
    assert not ExecutorCache().enabled
    monkeypatch.setenv("NPU_SIM_EXECUTOR_CACHE", "verify")
    c = ExecutorCache()
    assert c.enabled and c.verify
    monkeypatch.setenv("NPU_SIM_EXECUTOR_CACHE", "1")
    assert ExecutorCache().enabled and not ExecutorCache().verify


def _const_builder(value, out):
    def build(chip):
        return aclOpExecutor("Probe", [], [], [out], info={"value": value})
    return build


def test_uncacheable_arguments_and_opt_out(npu):
    """An argument the key cannot describe (an arbitrary object) or a builder marked
    with no_executor_cache is prepared normally every time and counted."""
    out = _tensor(npu, (8,))
    thing = object()
    for _ in range(2):
        ws, ex, ret = prepare("Probe", _const_builder(thing, out))
        assert ret == 0
    assert stats()["uncacheable"] == 2 and stats()["size"] == 0
    build = opsnn.no_executor_cache(_const_builder(1, out))
    prepare("Probe", build)
    prepare("Probe", build)
    assert stats()["uncacheable"] == 4 and stats()["hits"] == 0
    # plain values and positional args are keyed
    prepare("Probe", lambda chip, v, o: aclOpExecutor("Probe", [], [], [o], info={"v": v}), 3, out)
    _, ex, _ = prepare("Probe", lambda chip, v, o: aclOpExecutor("Probe", [], [], [o], info={"v": v}), 3, out)
    assert stats()["hits"] == 0  # two different lambdas (different code objects)


_FACTOR = {"value": 1}


def test_verify_mode_catches_a_key_that_misses_a_global(npu):
    """A builder that reads a mutable global breaks the cache rule; verify mode
    rebuilds on each hit and raises CacheVerifyError when the plans differ."""
    out = _tensor(npu, (8,))

    def probe():
        return prepare("Probe", lambda chip: aclOpExecutor("Probe", [], [], [out], info=dict(_FACTOR)))
    opsnn.set_executor_cache(verify=True)
    probe()
    probe()                                    # same global: the hit verifies
    _FACTOR["value"] = 2
    with pytest.raises(CacheVerifyError, match="differs"):
        probe()
    _FACTOR["value"] = 1
