"""Many host threads driving one ACL context through the pyACL-style binding.

ACL is used from many threads: a context is current in the thread that set it
(aclrtSetCurrentContext / aclrtSetDevice), streams are per caller, and every
runtime call is safe to make concurrently. Here 8 threads, each with its own
stream and buffers, launch aclnnInplaceAdds (x += 1) 500 times each (250 with the
executor cache off) and check every result against numpy.
"""
from __future__ import annotations

import threading

import numpy as np
import pytest

import opsnn
from acl_runtime import acl

N_THREADS = 8
LAUNCHES = 500          # per thread
F32 = opsnn.aclDataType.ACL_FLOAT
ND = opsnn.aclFormat.ACL_FORMAT_ND


def _worker(tid: int, n: int, errors: list, results: dict) -> None:
    try:
        stream, ret = acl.rt.create_stream()
        assert ret == 0, acl.get_recent_err_msg()
        host = np.full(64, float(tid), np.float32)
        ptr, ret = acl.rt.malloc(host.nbytes, 0)
        assert ret == 0, acl.get_recent_err_msg()
        ret = acl.rt.memcpy(ptr, host.nbytes, acl.util.numpy_to_ptr(host), host.nbytes, 1)
        assert ret == 0, acl.get_recent_err_msg()
        t = opsnn.aclCreateTensor((64,), F32, None, 0, ND, (64,), ptr)
        one = opsnn.aclCreateScalar(1.0, F32)
        for i in range(n):
            ws, ex, ret = opsnn.aclnnInplaceAddsGetWorkspaceSize(t, one, one)
            assert ret == 0, opsnn.aclGetRecentErrMsg()
            assert ws == 0
            ret = opsnn.aclnnInplaceAdds(0, 0, ex, stream)
            assert ret == 0, opsnn.aclGetRecentErrMsg()
            if i % 100 == 99:
                assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
        assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
        out = np.empty_like(host)
        ret = acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, 2)
        assert ret == 0, acl.get_recent_err_msg()
        results[tid] = out
        assert acl.rt.free(ptr) == 0, acl.get_recent_err_msg()
        assert acl.rt.destroy_stream(stream) == 0, acl.get_recent_err_msg()
    except BaseException as e:  # noqa: BLE001 - reported by the main thread
        errors.append(f"thread {tid}: {e}")


def _run_threads(target, errors: list, results: dict, size: int, n: int) -> None:
    """Run ``target(tid)`` in N_THREADS threads; check thread ``tid`` ended with ``size``
    values of ``tid + n`` (it started at ``tid`` and added 1 ``n`` times)."""
    threads = [threading.Thread(target=target, args=(i,)) for i in range(N_THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors[:3]
    for tid in range(N_THREADS):
        np.testing.assert_array_equal(results[tid], np.full(size, tid + n, np.float32))


@pytest.mark.parametrize("cache", [True, False], ids=["cache-on", "cache-off"])
def test_eight_threads_own_streams(npu, cache):
    launches = LAUNCHES if cache else LAUNCHES // 2   # phase 1 in full is slower: keep the test a few seconds
    prev = opsnn.set_executor_cache(enabled=cache)
    try:
        errors: list = []
        results: dict = {}
        _run_threads(lambda i: _worker(i, launches, errors, results), errors, results, 64, launches)
    finally:
        opsnn.set_executor_cache(**prev)


def test_eight_threads_pythonic_layer():
    """The same through Session / run_op: 8 threads, each its own stream, x += 1 per launch."""
    from acl_runtime import Session
    n = 200
    with Session("tiny") as s:
        errors: list = []
        results: dict = {}

        def work(tid):
            try:
                st = s.stream()
                x = s.to_device(np.full(32, float(tid), np.float32))
                one = opsnn.aclCreateScalar(1.0, F32)
                for _ in range(n):
                    opsnn.run_op(opsnn.aclnnInplaceAddsGetWorkspaceSize, opsnn.aclnnInplaceAdds, x, one, one,
                                 stream=st)
                st.synchronize()
                results[tid] = x.numpy()
            except BaseException as e:  # noqa: BLE001
                errors.append(f"thread {tid}: {e}")

        _run_threads(work, errors, results, 32, n)


def test_recent_error_is_per_thread(npu):
    """aclGetRecentErrMsg is per thread: a failure in one thread does not overwrite another's."""
    assert acl.rt.free(12345) != 0
    mine = acl.get_recent_err_msg()
    seen = {}

    def other():
        seen["before"] = acl.get_recent_err_msg()
        acl.rt.malloc(-1, 0)
        seen["after"] = acl.get_recent_err_msg()

    th = threading.Thread(target=other)
    th.start()
    th.join()
    assert seen["before"] == "" and "malloc size" in seen["after"]
    assert acl.get_recent_err_msg() == mine


def test_context_is_per_thread_and_checked(npu):
    """acl.rt.get_context / set_context (aclrtGet/SetCurrentContext): a new thread gets
    the default context; a stale or bogus handle is refused with a status."""
    ctx, ret = acl.rt.get_context()
    assert ret == 0 and ctx
    got = {}

    def other():
        got["ctx"] = acl.rt.get_context()
        got["set"] = acl.rt.set_context(ctx)
        got["bad"] = acl.rt.set_context(ctx + 1)

    th = threading.Thread(target=other)
    th.start()
    th.join()
    assert got["ctx"] == (ctx, 0) and got["set"] == 0 and got["bad"] == 100000
    acl.finalize()
    acl.init(chip="tiny")
    acl.rt.set_device(0)
    assert acl.rt.set_context(ctx) == 100000 and "does not exist" in acl.get_recent_err_msg()
