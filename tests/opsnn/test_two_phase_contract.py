"""The aclnn two-phase contract (DESIGN.md section 5) through the pyACL-style binding,
written as a CANN user writes it: aclCreateTensor, phase 1
(aclnnXxxGetWorkspaceSize -> workspace size, executor, status), workspace malloc,
phase 2 (aclnnXxx(workspace, size, executor, stream)), synchronize.

Status codes: 0 ACLNN_SUCCESS, 161001 ACLNN_ERR_PARAM_NULLPTR, 161002 ACLNN_ERR_PARAM_INVALID.

(Over 300 lines on purpose: one walk through the contract, clause by clause of DESIGN.md section 5.)
"""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from tests.conftest import rel_err

ND = opsnn.aclFormat.ACL_FORMAT_ND
F32 = opsnn.aclDataType.ACL_FLOAT


@pytest.fixture(autouse=True, params=[True, False], ids=["cache-on", "cache-off"])
def executor_cache(request):
    """Every contract rule holds with the executor cache on and off."""
    prev = opsnn.set_executor_cache(enabled=request.param)
    opsnn.clear_executor_cache()
    yield request.param
    opsnn.set_executor_cache(**prev)
    opsnn.clear_executor_cache()


def _ref(a, b):
    return a.astype(np.float64) @ b.astype(np.float64)


class Problem:
    """a [m, k] @ b [k, n] -> c [m, n], float32, on the device."""

    def __init__(self, npu, rng, m=48, k=40, n=36):
        self.a = rng.standard_normal((m, k)).astype(np.float32)
        self.b = rng.standard_normal((k, n)).astype(np.float32)
        self.pa, self.ta = npu.to_device(self.a)
        self.pb, self.tb = npu.to_device(self.b)
        self.pc, self.tc = npu.empty((m, n), np.float32)
        self.out_shape = (m, n)

    def prepare(self):
        return opsnn.aclnnMatmulGetWorkspaceSize(self.ta, self.tb, self.tc, 0)


def _phase2(npu, ws, executor, launch=opsnn.aclnnMatmul, stream=0):
    wptr = npu.malloc(ws) if ws else 0
    return launch(wptr, ws, executor, stream)


def _sync():
    assert acl.rt.synchronize_stream(0) == 0, acl.get_recent_err_msg()


def test_matmul_matches_float64(npu, rng):
    """Phase 1 + phase 2 + sync gives a @ b to 1e-5 relative against float64 numpy."""
    p = Problem(npu, rng, 100, 70, 130)
    ws, ex, ret = p.prepare()
    assert ret == 0 and isinstance(ex, opsnn.aclOpExecutor)
    assert _phase2(npu, ws, ex) == 0
    _sync()
    assert rel_err(npu.to_host(p.pc, p.out_shape, np.float32), _ref(p.a, p.b)) < 1e-5


def test_second_run_of_single_use_executor_fails(npu, rng):
    """An executor is single-use by default: a second phase 2 returns 161002 and says why."""
    p = Problem(npu, rng)
    ws, ex, ret = p.prepare()
    assert ret == 0
    assert _phase2(npu, ws, ex) == 0
    assert _phase2(npu, ws, ex) == opsnn.ACLNN_ERR_PARAM_INVALID == 161002
    assert "not repeatable" in opsnn.aclGetRecentErrMsg()
    _sync()
    assert rel_err(npu.to_host(p.pc, p.out_shape, np.float32), _ref(p.a, p.b)) < 1e-5


def test_repeatable_executor_rebound_to_new_data_then_destroyed(npu, rng):
    """aclSetAclOpExecutorRepeatable after phase 1 allows reruns; aclSetInputTensorAddr /
    aclSetOutputTensorAddr rebind it to new buffers, giving the new correct result;
    after aclDestroyAclOpExecutor a run fails with 161002."""
    p = Problem(npu, rng)
    ws, ex, ret = p.prepare()
    assert ret == 0
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
    assert _phase2(npu, ws, ex) == 0
    _sync()
    first = npu.to_host(p.pc, p.out_shape, np.float32)
    assert rel_err(first, _ref(p.a, p.b)) < 1e-5

    a2 = rng.standard_normal(p.a.shape).astype(np.float32)
    b2 = rng.standard_normal(p.b.shape).astype(np.float32)
    pa2, _ = npu.to_device(a2)
    pb2, _ = npu.to_device(b2)
    pc2, _ = npu.empty(p.out_shape, np.float32)
    assert opsnn.aclSetInputTensorAddr(ex, 0, p.ta, pa2) == 0
    assert opsnn.aclSetInputTensorAddr(ex, 1, p.tb, pb2) == 0
    assert opsnn.aclSetOutputTensorAddr(ex, 0, p.tc, pc2) == 0
    assert _phase2(npu, ws, ex) == 0
    _sync()
    assert rel_err(npu.to_host(pc2, p.out_shape, np.float32), _ref(a2, b2)) < 1e-5
    np.testing.assert_array_equal(npu.to_host(p.pc, p.out_shape, np.float32), first)  # old output untouched

    assert _phase2(npu, ws, ex) == 0                     # still repeatable
    assert opsnn.aclDestroyAclOpExecutor(ex) == 0
    assert _phase2(npu, ws, ex) == 161002
    assert "destroyed" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclDestroyAclOpExecutor(ex) == 161002   # destroying twice
    _sync()


def test_null_tensor_is_161001(npu, rng):
    """A null input or output tensor in phase 1 is ACLNN_ERR_PARAM_NULLPTR, naming it."""
    p = Problem(npu, rng)
    for args, name in (((None, p.tb, p.tc), "self"), ((p.ta, None, p.tc), "mat2"), ((p.ta, p.tb, None), "out")):
        ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(*args, 0)
        assert (ws, ex, ret) == (0, None, 161001)
        assert name in opsnn.aclGetRecentErrMsg() and "null" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnMatmul(0, 0, None, 0) == 161001


def test_mismatched_k_is_161002(npu, rng):
    """self [m, k] with mat2 [k', n], k != k': ACLNN_ERR_PARAM_INVALID naming both K."""
    _, ta = npu.empty((8, 5), np.float32)
    _, tb = npu.empty((6, 4), np.float32)
    _, tc = npu.empty((8, 4), np.float32)
    ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0)
    assert (ex, ret) == (None, 161002)
    msg = opsnn.aclGetRecentErrMsg()
    assert "K=5" in msg and "K=6" in msg


def test_malloc_larger_than_hbm_fails(npu):
    """aclrtMalloc beyond HBM returns a non-zero status (207001) and a null pointer."""
    ptr, ret = acl.rt.malloc(runtime().chip.hbm_bytes + 1, acl.ACL_MEM_MALLOC_HUGE_FIRST)
    assert ret != 0 and ret == acl.ACL_ERROR_RT_MEMORY_ALLOCATION and ptr == 0


def test_set_input_tensor_addr_index_out_of_range_is_161002(npu, rng):
    """Matmul has inputs 0 and 1 and output 0: other indices are refused."""
    p = Problem(npu, rng)
    ws, ex, _ = p.prepare()
    assert opsnn.aclSetInputTensorAddr(ex, 2, p.ta, p.pa) == 161002
    assert "out of range" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclSetInputTensorAddr(ex, -1, p.ta, p.pa) == 161002
    assert opsnn.aclSetOutputTensorAddr(ex, 1, p.tc, p.pc) == 161002
    assert opsnn.aclSetInputTensorAddr(ex, 0, p.ta, p.pa + 4) == 161002   # misaligned address
    assert opsnn.aclSetInputTensorAddr(None, 0, p.ta, p.pa) == 161001
    assert _phase2(npu, ws, ex) == 0                   # the executor is unharmed
    _sync()


def test_workspace_smaller_than_asked_is_161002(npu, rng):
    """Phase 2 with less workspace than phase 1 asked for is refused (the executor is
    crafted to need 4 KiB: the built-in matmul needs none)."""
    p = Problem(npu, rng)
    ws, ex, ret = p.prepare()
    assert ret == 0 and ws == 0
    ex.workspace_size = 4096
    small = npu.malloc(1024)
    assert opsnn.aclnnMatmul(small, 1024, ex, 0) == 161002
    assert "smaller" in opsnn.aclGetRecentErrMsg() and "4096" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnMatmul(0, 4096, ex, 0) == 161001   # the size is right but the address null
    assert opsnn.aclnnMatmul(npu.malloc(4096), 4096, ex, 0) == 0
    _sync()
    assert rel_err(npu.to_host(p.pc, p.out_shape, np.float32), _ref(p.a, p.b)) < 1e-5


def test_executor_of_another_op_is_161002(npu, rng):
    """An executor prepared by aclnnRelu cannot be run by aclnnMatmul (and vice versa)."""
    p = Problem(npu, rng)
    _, relu_ex, ret = opsnn.aclnnReluGetWorkspaceSize(p.tc, p.tc)
    assert ret == 0
    assert opsnn.aclnnMatmul(0, 0, relu_ex, 0) == 161002
    assert "aclnnRelu" in opsnn.aclGetRecentErrMsg()
    _, mm_ex, _ = p.prepare()
    assert opsnn.aclnnRelu(0, 0, mm_ex, 0) == 161002
    assert opsnn.aclnnMatmul(0, 0, mm_ex, 0) == 0      # rejected runs did not consume it


def test_create_tensor_rejects_bad_metadata(npu):
    """aclCreateTensor returns None with a message for a negative stride, a device address
    that is not 32 B aligned, or a view reaching beyond its storage."""
    ptr = npu.malloc(4096)
    ok = opsnn.aclCreateTensor((4, 8), F32, (8, 1), 0, ND, (4, 8), ptr)
    assert ok is not None and ok.is_contiguous
    col_major = opsnn.aclCreateTensor((4, 8), F32, (1, 4), 0, ND, (4, 8), ptr)  # fits exactly: valid
    assert col_major is not None and not col_major.is_contiguous
    cases = [
        (((4, 8), F32, (8, -1), 0, ND, (4, 8), ptr), "non-negative"),
        (((4, 8), F32, (8, 1), -2, ND, (4, 8), ptr), "non-negative"),
        (((4, 8), F32, (8, 1), 0, ND, (4, 8), ptr + 16), "32-byte aligned"),
        (((4, 8), F32, (8, 1), 0, ND, (4, 8), ptr + 4), "32-byte aligned"),
        (((4, 8), F32, (8, 1), 0, ND, (3, 8), ptr), "beyond storage"),
        (((4, 8), F32, (8, 1), 1, ND, (4, 8), ptr), "beyond storage"),     # offset pushes past the end
        (((4, 8), F32, (1, 5), 0, ND, (4, 8), ptr), "beyond storage"),     # strides reach element 38 of 32
        (((4, 8), F32, (8,), 0, ND, (4, 8), ptr), "strides"),
    ]
    for args, needle in cases:
        assert opsnn.aclCreateTensor(*args) is None, args
        assert needle in opsnn.aclGetRecentErrMsg(), (args, opsnn.aclGetRecentErrMsg())


def test_non_contiguous_input_gives_the_right_answer(npu, rng):
    """A transposed-strides view (storage [k, m], view [m, k] with strides (1, m)) and an
    offset row window are valid matmul inputs with the right result."""
    m, k, n = 24, 40, 20
    at_store = rng.standard_normal((k, m)).astype(np.float32)     # holds a transposed
    b_store = rng.standard_normal((k + 3, n)).astype(np.float32)  # b is rows 3.. of it
    pa, _ = npu.to_device(at_store)
    pb, _ = npu.to_device(b_store)
    ta = opsnn.aclCreateTensor((m, k), F32, (1, m), 0, ND, (k, m), pa)
    tb = opsnn.aclCreateTensor((k, n), F32, (n, 1), 3 * n, ND, (k + 3, n), pb)
    assert ta is not None and tb is not None, opsnn.aclGetRecentErrMsg()
    assert not ta.is_contiguous
    pc, tc = npu.empty((m, n), np.float32)
    npu.run(opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0), opsnn.aclnnMatmul)
    expect = _ref(at_store.T, b_store[3:])
    assert rel_err(npu.to_host(pc, (m, n), np.float32), expect) < 1e-5


def test_executor_lifecycle_misuse(npu, rng):
    """Repeatable must be set before the first run; a destroyed tensor is null (161001);
    a stream that does not exist is a runtime error (361001)."""
    p = Problem(npu, rng)
    ws, ex, _ = p.prepare()
    assert _phase2(npu, ws, ex) == 0
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 161002      # already released by its run
    assert opsnn.aclSetAclOpExecutorRepeatable(None) == 161001
    _, ex2, _ = p.prepare()
    assert opsnn.aclnnMatmul(0, 0, ex2, 424242) == opsnn.ACLNN_ERR_RUNTIME_ERROR == 361001
    assert "424242" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclDestroyTensor(p.tb) == 0
    assert opsnn.aclnnMatmulGetWorkspaceSize(p.ta, p.tb, p.tc, 0)[2] == 161001
    assert "destroyed" in opsnn.aclGetRecentErrMsg()
    _sync()


def test_freed_input_is_reported_by_the_device_at_sync(npu, rng):
    """Phase 2 reads addresses, not data: an input freed after phase 1 is caught when the
    kernel runs, and the stream sync returns 507899 (memory access) with the reason."""
    p = Problem(npu, rng)
    ws, ex, _ = p.prepare()
    assert acl.rt.free(p.pa) == 0
    assert _phase2(npu, ws, ex) == 0
    assert acl.rt.synchronize_stream(0) == acl.ACL_ERROR_RT_MEMORY_ACCESS == 507899
    assert "freed" in acl.get_recent_err_msg()


# ---- robustness: wrong-type arguments to the lifecycle calls, numpy integers -------------------
@pytest.mark.parametrize("bad", ["x", 5, 1.5, object(), [None]])
def test_lifecycle_calls_on_a_non_executor_are_161002(npu, rng, bad):
    """Every lifecycle call returns 161002 (never raises) for something that is not an
    executor, and 161001 for None, with the call's name in the message."""
    p = Problem(npu, rng)
    calls = [(opsnn.aclSetAclOpExecutorRepeatable, ()), (opsnn.aclDestroyAclOpExecutor, ()),
             (opsnn.aclSetInputTensorAddr, (0, p.ta, p.pa)), (opsnn.aclSetOutputTensorAddr, (0, p.tc, p.pc)),
             (opsnn.aclSetTensorAddr, (0, p.ta, p.pa))]
    for fn, rest in calls:
        assert fn(bad, *rest) == 161002, fn.__name__
        assert fn.__name__ in opsnn.aclGetRecentErrMsg() and "not an aclOpExecutor" in opsnn.aclGetRecentErrMsg()
        assert fn(None, *rest) == 161001
        assert "null" in opsnn.aclGetRecentErrMsg()


@pytest.mark.parametrize("tensor", ["x", 5, np.zeros(3)])
def test_set_tensor_addr_with_a_non_tensor_is_161002(npu, rng, tensor):
    p = Problem(npu, rng)
    _, ex, _ = p.prepare()
    assert opsnn.aclSetInputTensorAddr(ex, 0, tensor, p.pa) == 161002
    assert "must be an aclTensor or None" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclSetOutputTensorAddr(ex, 0, tensor, p.pc) == 161002


def test_set_tensor_addr_accepts_numpy_integers(npu, rng):
    """An aligned np.int64 / np.uint64 address and a numpy index are fine (they used to be
    "must be a 32-byte aligned int"); the rebound run reads the new buffer."""
    p = Problem(npu, rng)
    ws, ex, _ = p.prepare()
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
    a2 = (p.a * 2).astype(np.float32)
    pa2, _ = npu.to_device(a2)
    pc2, _ = npu.empty(p.out_shape, np.float32)
    assert opsnn.aclSetInputTensorAddr(ex, np.int64(0), p.ta, np.uint64(pa2)) == 0, opsnn.aclGetRecentErrMsg()
    assert opsnn.aclSetOutputTensorAddr(ex, np.int32(0), None, np.int64(pc2)) == 0, opsnn.aclGetRecentErrMsg()
    assert type(p.ta.tensor_data) is int and p.ta.tensor_data == pa2
    assert _phase2(npu, ws, ex) == 0
    _sync()
    assert rel_err(npu.to_host(pc2, p.out_shape, np.float32), _ref(a2, p.b)) < 1e-5
    assert opsnn.aclDestroyAclOpExecutor(ex) == 0


@pytest.mark.parametrize("index, addr_delta, frag", [(True, 0, "not bool"), (0.0, 0, "not float"),
                                                    (0, 0.0, "not float"), (0, 16, "aligned"), (0, True, "not bool")])
def test_set_tensor_addr_refuses_bools_floats_and_misalignment(npu, rng, index, addr_delta, frag):
    p = Problem(npu, rng)
    _, ex, _ = p.prepare()
    addr = p.pa + addr_delta if not isinstance(addr_delta, (bool, float)) else (
        True if addr_delta is True else float(p.pa))
    assert opsnn.aclSetInputTensorAddr(ex, index, p.ta, addr) == 161002
    assert frag in opsnn.aclGetRecentErrMsg()
    assert _phase2(npu, 0, ex) == 0          # refused calls leave it usable
    _sync()


def test_numpy_integer_workspace_size_and_address(npu, rng):
    """Phase 2 takes numpy integers for the workspace size and address (a numpy size
    used to get a misleading "smaller" message); a short one is still refused."""
    p = Problem(npu, rng)
    ws, ex, _ = p.prepare()
    ex.workspace_size = 4096
    w = npu.malloc(4096)
    assert opsnn.aclnnMatmul(np.uint64(w), np.int32(1024), ex, 0) == 161002
    assert "1024 B is smaller than the 4096 B" in opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnMatmul(np.uint64(w), np.int64(4096), ex, np.int64(0)) == 0, opsnn.aclGetRecentErrMsg()
    _sync()
    assert rel_err(npu.to_host(p.pc, p.out_shape, np.float32), _ref(p.a, p.b)) < 1e-5


@pytest.mark.parametrize("repeatable", [False, True])
@pytest.mark.parametrize("bad_stream", [424242, "s", 1.5, True])
def test_executor_survives_a_failed_phase_2(npu, rng, repeatable, bad_stream):
    """A phase 2 refused for a bad stream (361001) consumes nothing: the same executor
    then runs on a good stream and gives the right answer."""
    p = Problem(npu, rng)
    ws, ex, _ = p.prepare()
    if repeatable:
        assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
    assert opsnn.aclnnMatmul(0, 0, ex, bad_stream) == 361001
    assert "stream" in opsnn.aclGetRecentErrMsg()
    s, _ = acl.rt.create_stream()
    assert opsnn.aclnnMatmul(0, 0, ex, s) == 0, opsnn.aclGetRecentErrMsg()
    assert acl.rt.synchronize_stream(s) == 0
    assert rel_err(npu.to_host(p.pc, p.out_shape, np.float32), _ref(p.a, p.b)) < 1e-5
    assert opsnn.aclnnMatmul(0, 0, ex, s) == (0 if repeatable else 161002)
    _sync()


def test_one_error_store_for_aclnn_and_acl(npu, rng):
    """CANN has one aclGetRecentErrMsg: after a failed aclnn phase 1, a failed phase 2
    and a failed acl.rt call, acl.get_recent_err_msg() and opsnn.aclGetRecentErrMsg()
    return the same, newest message."""
    p = Problem(npu, rng)
    ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(None, p.tb, p.tc, 0)       # phase 1: null input
    assert ret == 161001 and ex is None
    first = opsnn.aclGetRecentErrMsg()
    assert first and acl.get_recent_err_msg() == first
    ws, ex, ret = p.prepare()
    assert ret == 0
    assert opsnn.aclnnMatmul(0, ws, None, 0) == 161001                          # phase 2: null executor
    second = acl.get_recent_err_msg()
    assert second != first and "executor is null" in second and opsnn.aclGetRecentErrMsg() == second
    assert acl.rt.free(12345) == 100000                                        # an ACL runtime call
    third = acl.get_recent_err_msg()
    assert third != second and opsnn.aclGetRecentErrMsg() == third
    ws, ex, ret = p.prepare()
    assert opsnn.aclnnMatmul(0, ws, ex, 987654) == 361001                       # phase 2: no such stream
    assert "987654" in opsnn.aclGetRecentErrMsg() and acl.get_recent_err_msg() == opsnn.aclGetRecentErrMsg()
