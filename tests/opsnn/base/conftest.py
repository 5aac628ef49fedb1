"""Fixtures for the executor lifecycle / pool / cache tests: the executor cache
emptied and its settings restored around each test, and small float32 problems."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from opsnn.base.cache import CACHE
from opsnn.base.pool import POOL

F32 = opsnn.aclDataType.ACL_FLOAT
F16 = opsnn.aclDataType.ACL_FLOAT16
ND = opsnn.aclFormat.ACL_FORMAT_ND


@pytest.fixture(autouse=True)
def fresh_cache():
    """Cache on and empty, handle pool empty, counters zeroed; previous settings restored after."""
    prev = opsnn.set_executor_cache(enabled=True, verify=False)
    opsnn.clear_executor_cache()
    POOL.clear()
    POOL.reset_stats()
    yield CACHE
    opsnn.set_executor_cache(**prev)
    opsnn.clear_executor_cache()


class AddProblem:
    """out = a + alpha * b on device, float32, shape ``shape``."""

    def __init__(self, npu, rng, shape=(4, 64), alpha=1.0):
        self.npu, self.rng, self.shape, self.alpha = npu, rng, shape, alpha
        self.a = rng.standard_normal(shape).astype(np.float32)
        self.b = rng.standard_normal(shape).astype(np.float32)
        self.pa, self.ta = npu.to_device(self.a)
        self.pb, self.tb = npu.to_device(self.b)
        self.pc, self.tc = npu.empty(shape, np.float32)

    def prepare(self, alpha=None):
        return opsnn.aclnnAddGetWorkspaceSize(self.ta, self.tb, self.alpha if alpha is None else alpha, self.tc)

    def expect(self, a=None, b=None, alpha=None):
        a = self.a if a is None else a
        b = self.b if b is None else b
        return a.astype(np.float64) + (self.alpha if alpha is None else alpha) * b.astype(np.float64)

    def result(self, ptr=None):
        return self.npu.to_host(self.pc if ptr is None else ptr, self.shape, np.float32)


@pytest.fixture
def add(npu, rng):
    return AddProblem(npu, rng)


def sync(stream=0):
    from acl_runtime import acl
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
