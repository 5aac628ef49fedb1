"""The pyACL-style binding: every call returns its documented status, never raises.

Statuses (acl_runtime/constants.py, DESIGN.md section 6): 0 success, 100000
ACL_ERROR_INVALID_PARAM, 100001 ACL_ERROR_UNINITIALIZE, 100002
ACL_ERROR_REPEAT_INITIALIZE, 100004 ACL_ERROR_INVALID_DEVICE, 207001
ACL_ERROR_RT_MEMORY_ALLOCATION.
"""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime.runtime import runtime

H2D, D2H, D2D, H2H = (acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
                      acl.ACL_MEMCPY_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_HOST_TO_HOST)


def test_status_constants_match_cann():
    """The codes are CANN's."""
    assert (acl.ACL_SUCCESS, acl.ACL_ERROR_INVALID_PARAM, acl.ACL_ERROR_UNINITIALIZE) == (0, 100000, 100001)
    assert (acl.ACL_ERROR_BAD_ALLOC, acl.ACL_ERROR_RT_MEMORY_ALLOCATION) == (200000, 207001)
    assert (acl.ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, acl.ACL_ERROR_RT_EVENT_SYNC_TIMEOUT) == (507046, 507047)
    assert (H2H, H2D, D2H, D2D) == (0, 1, 2, 3)


# ---- lifecycle ----------------------------------------------------------------------------------
def test_calls_before_init_return_100001(clean):
    """Without acl.init every runtime call returns ACL_ERROR_UNINITIALIZE, with a message."""
    host = np.zeros(4, np.float32)
    assert acl.rt.set_device(0) == 100001
    assert "acl.init" in acl.get_recent_err_msg()
    assert acl.rt.malloc(64, 0) == (0, 100001)
    assert acl.rt.free(0x1_0000_0000) == 100001
    assert acl.rt.create_stream() == (0, 100001)
    assert acl.rt.create_event() == (0, 100001)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 16, 0, 16, D2H) == 100001
    assert acl.rt.synchronize_device() == 100001
    assert acl.rt.get_soc_name() == ("", 100001)
    assert acl.rt.malloc_host(64) == (0, 100001)
    assert acl.finalize() == 100001


def test_device_calls_before_set_device_return_100004(clean):
    """Initialised but no device set: device calls say so (ACL_ERROR_INVALID_DEVICE)."""
    assert acl.init(chip="tiny") == 0
    assert acl.rt.malloc(64, 0) == (0, 100004)
    assert "set_device" in acl.get_recent_err_msg()


def test_init_twice_returns_100002(clean):
    """A second acl.init without finalize is ACL_ERROR_REPEAT_INITIALIZE; finalize then init works."""
    assert acl.init(chip="tiny") == 0
    assert acl.init(chip="tiny") == 100002
    assert "twice" in acl.get_recent_err_msg()
    assert acl.finalize() == 0
    assert acl.init(chip="tiny") == 0


@pytest.mark.parametrize("chip", ["ascend9999", "missing_chip.json", "missing_chip.yaml"])
def test_init_with_unknown_chip_returns_100000(clean, chip):
    """An unknown preset name or a missing config file is an invalid parameter, not an exception."""
    assert acl.init(chip=chip) == 100000
    assert "missing_chip" in acl.get_recent_err_msg() or "unknown chip" in acl.get_recent_err_msg()
    assert not runtime().initialized


@pytest.mark.parametrize("device_id", [1, -1, 7, "0", None])
def test_bad_device_id_returns_100004(clean, device_id):
    """Only device 0 exists: any other id is ACL_ERROR_INVALID_DEVICE."""
    assert acl.init(chip="tiny") == 0
    assert acl.rt.set_device(device_id) == 100004
    assert "device" in acl.get_recent_err_msg()
    assert acl.rt.set_device(0) == 0
    assert acl.rt.get_soc_name() == ("tiny", 0)


def test_reset_device(npu):
    """aclrtResetDevice on the set device succeeds; on another id it is 100004."""
    assert acl.rt.reset_device(0) == 0
    assert acl.rt.reset_device(3) == 100004


# ---- memory -------------------------------------------------------------------------------------
def test_malloc_is_64_byte_aligned(npu):
    """aclrtMalloc addresses are 64 B aligned and non-null."""
    ptrs = []
    for size in (1, 33, 100, 4097):
        ptr, ret = acl.rt.malloc(size, acl.ACL_MEM_MALLOC_HUGE_FIRST)
        assert ret == 0 and ptr and ptr % 64 == 0
        ptrs.append(ptr)
    assert all(acl.rt.free(p) == 0 for p in ptrs)


def test_malloc_larger_than_hbm_returns_207001(npu):
    """A request beyond HBM capacity is ACL_ERROR_RT_MEMORY_ALLOCATION with ptr 0."""
    hbm = runtime().chip.hbm_bytes
    assert acl.rt.malloc(hbm + 1, 0) == (0, 207001)
    assert "out of device memory" in acl.get_recent_err_msg()
    ptr, ret = acl.rt.malloc(hbm, 0)       # exactly the capacity still fits
    assert ret == 0 and ptr
    assert acl.rt.malloc(32, 0) == (0, 207001)


@pytest.mark.parametrize("size", [0, -1, -4096, 1.5, True, "64", None])
def test_malloc_bad_size_returns_100000(npu, size):
    """Size zero, negative or not an int is ACL_ERROR_INVALID_PARAM."""
    assert acl.rt.malloc(size, 0) == (0, 100000)
    assert "size" in acl.get_recent_err_msg() or "int" in acl.get_recent_err_msg()


def test_malloc_bad_policy_returns_100000(npu):
    """Only aclrtMemMallocPolicy values 0..2 are accepted."""
    assert acl.rt.malloc(64, 9) == (0, 100000)
    assert "policy" in acl.get_recent_err_msg()


def test_free_twice_and_unknown_pointer_return_100000(npu):
    """A double free or a pointer that is not an allocation start is an invalid parameter."""
    ptr, _ = acl.rt.malloc(256, 0)
    assert acl.rt.free(ptr) == 0
    assert acl.rt.free(ptr) == 100000
    assert "double free" in acl.get_recent_err_msg()
    other, _ = acl.rt.malloc(256, 0)
    assert acl.rt.free(other + 64) == 100000
    assert acl.rt.free(0) == 100000


def test_memcpy_round_trip_every_kind(npu, rng):
    """H2D, D2D, D2H and H2H copies all succeed and move the bytes."""
    src = rng.standard_normal(1000).astype(np.float32)
    n = src.nbytes
    d1, _ = acl.rt.malloc(n, 0)
    d2, _ = acl.rt.malloc(n, 0)
    out = np.zeros_like(src)
    host2 = np.zeros_like(src)
    assert acl.rt.memcpy(d1, n, acl.util.numpy_to_ptr(src), n, H2D) == 0
    assert acl.rt.memcpy(d2, n, d1, n, D2D) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), n, d2, n, D2H) == 0
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host2), n, acl.util.numpy_to_ptr(out), n, H2H) == 0
    np.testing.assert_array_equal(out, src)
    np.testing.assert_array_equal(host2, src)
    assert acl.rt.memcpy(d1, n, acl.util.numpy_to_ptr(src), 0, H2D) == 0   # count 0 is a no-op


def test_memcpy_count_over_dst_max_returns_100000(npu):
    """count > dst_max is refused before anything moves."""
    host = np.ones(64, np.float32)
    d, _ = acl.rt.malloc(host.nbytes, 0)
    assert acl.rt.memcpy(d, 128, acl.util.numpy_to_ptr(host), 256, H2D) == 100000
    assert "dst_max" in acl.get_recent_err_msg()


@pytest.mark.parametrize("kind", [4, -1, 99, None, "1"])
def test_memcpy_bad_kind_returns_100000(npu, kind):
    """Only aclrtMemcpyKind 0..3 are accepted."""
    host = np.ones(16, np.float32)
    d, _ = acl.rt.malloc(host.nbytes, 0)
    assert acl.rt.memcpy(d, 64, acl.util.numpy_to_ptr(host), 64, kind) == 100000
    assert "kind" in acl.get_recent_err_msg()


def test_memcpy_unknown_host_pointer_returns_100000(npu):
    """A host pointer that no numpy_to_ptr/malloc_host buffer covers is refused."""
    d, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memcpy(d, 64, 0xDEAD0000, 64, H2D) == 100000
    assert "not inside a buffer" in acl.get_recent_err_msg()
    small = np.zeros(4, np.float32)                      # 16 B: too short for 64 B
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(small), 64, d, 64, D2H) == 100000


def test_memcpy_to_freed_device_memory_returns_100000(npu):
    """Copying into (or out of) freed device memory is caught as use-after-free."""
    host = np.ones(16, np.float32)
    d, _ = acl.rt.malloc(64, 0)
    assert acl.rt.free(d) == 0
    assert acl.rt.memcpy(d, 64, acl.util.numpy_to_ptr(host), 64, H2D) == 100000
    assert "freed" in acl.get_recent_err_msg()
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), 64, d, 64, D2H) == 100000


def test_memcpy_past_device_allocation_returns_100000(npu):
    """A copy running past the end of its device allocation is refused."""
    host = np.ones(64, np.float32)
    d, _ = acl.rt.malloc(128, 0)
    assert acl.rt.memcpy(d, 256, acl.util.numpy_to_ptr(host), 256, H2D) == 100000
    assert "past the end" in acl.get_recent_err_msg()


def test_malloc_host_and_util(npu):
    """malloc_host/free_host succeed once; ptr_to_numpy views them; bad pointers fail softly."""
    hp, ret = acl.rt.malloc_host(64)
    assert ret == 0 and hp
    view = acl.util.ptr_to_numpy(hp, (16,), np.float32)
    view[:] = 3.0
    d, _ = acl.rt.malloc(64, 0)
    assert acl.rt.memcpy(d, 64, hp, 64, H2D) == 0
    back = np.zeros(16, np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(back), 64, d, 64, D2H) == 0
    assert (back == 3.0).all()
    assert acl.util.ptr_to_numpy(hp, (16,), 0).dtype == np.float32   # aclDataType code 0 = FLOAT
    assert acl.rt.free_host(hp) == 0
    assert acl.rt.free_host(hp) == 100000
    assert acl.rt.malloc_host(0) == (0, 100000)
    assert acl.util.ptr_to_numpy(0x1234, (4,), np.float32) is None
    assert acl.util.numpy_to_ptr(np.zeros((4, 4), np.float32)[:, ::2]) == 0
    assert "C-contiguous" in acl.get_recent_err_msg()


def test_recent_error_message_names_the_failure(npu):
    """aclGetRecentErrMsg gives the last failure's code, name and reason."""
    acl.rt.malloc(0, 0)
    msg = acl.get_recent_err_msg()
    assert msg.startswith("[100000 ACL_ERROR_INVALID_PARAM]") and "positive" in msg
    acl.rt.malloc(1 << 50, 0)
    assert acl.get_recent_err_msg().startswith("[207001 ACL_ERROR_RT_MEMORY_ALLOCATION]")


def test_numpy_to_ptr_of_a_view_stays_valid(npu):
    """A pointer from numpy_to_ptr stays usable while the memory lives, even if the view
    it came from is gone, and a shorter view at the same address does not shrink it."""
    import gc
    x = np.arange(16, dtype=np.float32)
    d, _ = acl.rt.malloc(64, 0)
    ptr = acl.util.numpy_to_ptr(x.reshape(4, 4))     # the temporary view dies at once
    gc.collect()
    assert acl.rt.memcpy(d, 64, ptr, 64, H2D) == 0, acl.get_recent_err_msg()
    acl.util.numpy_to_ptr(x[:2])                      # same address, 8 bytes
    assert acl.rt.memcpy(d, 64, acl.util.numpy_to_ptr(x), 64, H2D) == 0
    out = np.zeros(4, np.float32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 16, d + 0, 16, D2H) == 0
    assert out.tolist() == [0, 1, 2, 3]
    window = np.zeros((4, 4), np.float32, order="F").T  # C-contiguous view of an F-ordered owner
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(window), 64, d, 64, D2H) == 0
    assert window.ravel().tolist() == list(range(16))
