"""Shared fixtures: an initialised ACL runtime on the ``tiny`` chip, and helpers to
move numpy arrays to and from device tensors through the pyACL-style binding."""
from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import settings

# CI runs the property tests with a fixed seed (reproducible, never flaky on landing);
# locally they explore new examples every run. No deadline: the simulator's first call
# in a process is slower (imports, caches), which is not what these tests check.
settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
settings.register_profile("dev", deadline=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

from acl_runtime import acl
from acl_runtime.runtime import runtime


class DeviceHelper:
    """Thin test helper over the binding: every call checks its status."""

    def __init__(self):
        self.ptrs: list[int] = []

    def malloc(self, nbytes: int) -> int:
        ptr, ret = acl.rt.malloc(max(int(nbytes), 1), acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0, acl.get_recent_err_msg()
        self.ptrs.append(ptr)
        return ptr

    def to_device(self, arr: np.ndarray):
        """Copy ``arr`` to new device memory; returns (ptr, aclTensor) with ND format."""
        import opsnn
        from opsnn.base.dtypes import from_numpy_dtype
        arr = np.require(arr, requirements="C")  # keeps 0-d arrays 0-d
        ptr = self.malloc(arr.nbytes)
        if arr.nbytes:
            ret = acl.rt.memcpy(ptr, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE)
            assert ret == 0, acl.get_recent_err_msg()
        t = opsnn.aclCreateTensor(arr.shape, from_numpy_dtype(arr.dtype), None, 0, 2, arr.shape, ptr)
        assert t is not None, opsnn.aclGetRecentErrMsg()
        return ptr, t

    def empty(self, shape, dtype):
        return self.to_device(np.zeros(shape, dtype))

    def to_host(self, ptr: int, shape, dtype) -> np.ndarray:
        out = np.empty(shape, dtype)
        if out.nbytes:
            ret = acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, acl.ACL_MEMCPY_DEVICE_TO_HOST)
            assert ret == 0, acl.get_recent_err_msg()
        return out

    def run(self, prep, launch, stream=0):
        """Run phase 1 result ``prep`` = (ws, executor, ret) through phase 2 and sync."""
        import opsnn
        ws, ex, ret = prep
        assert ret == 0, opsnn.aclGetRecentErrMsg()
        wptr = self.malloc(ws) if ws else 0
        assert launch(wptr, ws, ex, stream) == 0, opsnn.aclGetRecentErrMsg()
        assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()


def _fresh(chip: str):
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    assert acl.init(chip=chip) == 0
    assert acl.rt.set_device(0) == 0


@pytest.fixture
def npu():
    """ACL initialised on the ``tiny`` chip with device 0 set; finalised after."""
    _fresh("tiny")
    yield DeviceHelper()
    acl.finalize()


@pytest.fixture
def npu910():
    """ACL initialised on ``ascend910b2``."""
    _fresh("ascend910b2")
    yield DeviceHelper()
    acl.finalize()


@pytest.fixture
def rng():
    return np.random.default_rng(1234)


def rel_err(got, ref) -> float:
    """max |got - ref| / max |ref| (0 when both are zero), in float64."""
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64)
    denom = np.abs(ref).max() if ref.size else 0.0
    diff = np.abs(got - ref).max() if ref.size else 0.0
    return float(diff / denom) if denom else float(diff)
