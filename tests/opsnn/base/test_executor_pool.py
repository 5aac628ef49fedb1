"""The executor handle pool: a hot phase-1/phase-2 loop allocates no new executor
once warm, and a released handle that the caller still holds is never reused."""
from __future__ import annotations

import gc

import opsnn
from opsnn.base.executor import aclOpExecutor
from opsnn.base.pool import HandlePool
from tests.conftest import rel_err

from .conftest import sync


def test_hot_loop_reuses_handles(add):
    """200 prepare+run iterations of one Add: after the first two, every handle comes
    from the pool (created stays at 2, hit rate > 0.98) and the numbers are right."""
    for _ in range(200):
        ws, ex, ret = add.prepare()
        assert ret == 0
        assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    st = opsnn.executor_pool_stats()
    assert st["created"] <= 2 and st["reused"] >= 198 and st["hit_rate"] > 0.98
    assert st["released"] == 200 and st["free"] >= 1
    assert set(st) == {"free", "capacity", "created", "reused", "released", "dropped", "hit_rate"}
    sync()
    assert rel_err(add.result(), add.expect()) < 1e-6


def test_held_released_handle_is_never_reused(add):
    """The caller keeps a released executor: later phase 1 calls never hand out that
    object, and using it still returns 161002."""
    ws, old, _ = add.prepare()
    assert opsnn.aclnnAdd(0, ws, old, 0) == 0
    seen = set()
    for _ in range(50):
        ws, ex, _ = add.prepare()
        seen.add(id(ex))
        assert ex is not old
        assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
        del ex
    assert opsnn.aclnnAdd(0, ws, old, 0) == 161002 and "not repeatable" in opsnn.aclGetRecentErrMsg()
    assert old.released
    sync()


def test_destroyed_handles_return_to_the_pool(add):
    handles = []
    for _ in range(3):
        ws, ex, _ = add.prepare()
        opsnn.aclSetAclOpExecutorRepeatable(ex)
        handles.append(ex)
    assert opsnn.executor_pool_stats()["free"] == 0
    for ex in handles:
        assert opsnn.aclDestroyAclOpExecutor(ex) == 0
    assert opsnn.executor_pool_stats()["free"] == 3
    del handles, ex
    gc.collect()
    before = opsnn.executor_pool_stats()["reused"]
    ws, ex, _ = add.prepare()
    assert opsnn.executor_pool_stats()["reused"] == before + 1
    assert not ex.released and not ex.repeatable and ex.runs == 0   # a reused handle starts fresh


def test_pool_unit_refcount_and_capacity():
    """HandlePool alone: take() skips an object someone still references; give() past
    capacity drops it (counted)."""
    pool = HandlePool(capacity=2)
    a, b, c = object(), object(), object()
    pool.give(a)
    assert pool.take() is None              # ``a`` is still named here
    del a
    assert pool.take() is not None          # now idle
    pool.give(b)
    pool.give(c)
    pool.give(object())                     # over capacity
    st = pool.stats()
    assert st["dropped"] == 1 and st["free"] == 2 and st["released"] == 4
    assert st["created"] == 1 and st["reused"] == 1 and st["hit_rate"] == 0.5


def test_builders_construct_through_the_pool(npu):
    """aclOpExecutor(...) as a builder writes it takes an idle pooled handle."""
    ex = aclOpExecutor("X", [], [], [])
    from opsnn.base.executor import _release, RELEASED
    _release(ex, RELEASED)
    ident = id(ex)
    del ex
    again = aclOpExecutor("Y", [], [], [], workspace_size=64)
    assert id(again) == ident and again.op_name == "Y" and again.workspace_size == 64 and not again.released
