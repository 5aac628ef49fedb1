"""Executor lifecycle (CANN two-phase docs; DESIGN.md section 5) on aclnnAdd, every
rule and every misuse: each returns its status and a message, nothing raises.

Numbers are checked against float64 numpy (a + alpha * b)."""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from npu_sim.program import BlockProgram, Buffer, CoreType, KernelSpec, Pipe, Stage, TileSpec
from opsnn.base.executor import PreparedKernel, aclOpExecutor
from opsnn.base.op import execute, prepare
from tests.conftest import rel_err

from .conftest import F32, ND, sync

INVALID, NULLPTR, RUNTIME = 161002, 161001, 361001


def msg() -> str:
    return opsnn.aclGetRecentErrMsg()


def test_single_use_runs_once_then_is_released(add):
    """Default executors are single-use: the run releases it; a second run is 161002."""
    ws, ex, ret = add.prepare()
    assert ret == 0 and ws == 0 and not ex.repeatable and not ex.released
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    assert ex.released and ex.runs == 1
    assert opsnn.aclnnAdd(0, ws, ex, 0) == INVALID
    assert "not repeatable" in msg()
    sync()
    assert rel_err(add.result(), add.expect()) < 1e-6


def test_repeatable_runs_many_times_and_rebinds(add, npu, rng):
    """aclSetAclOpExecutorRepeatable allows reruns; each of the three address setters
    rebinds its slot; the old output is left alone; destroy ends it."""
    ws, ex, _ = add.prepare()
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == 0          # harmless twice
    for _ in range(3):
        assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()
    first = add.result()
    assert rel_err(first, add.expect()) < 1e-6 and ex.runs == 3

    a2 = rng.standard_normal(add.shape).astype(np.float32)
    b2 = rng.standard_normal(add.shape).astype(np.float32)
    pa2, _ = npu.to_device(a2)
    pb2, _ = npu.to_device(b2)
    pc2, _ = npu.empty(add.shape, np.float32)
    assert opsnn.aclSetInputTensorAddr(ex, 0, add.ta, pa2) == 0
    assert opsnn.aclSetTensorAddr(ex, 1, add.tb, pb2) == 0       # slot 1 = input 1
    assert opsnn.aclSetOutputTensorAddr(ex, 0, add.tc, pc2) == 0
    assert add.ta.tensor_data == pa2                              # the tensor follows
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()
    assert rel_err(add.result(pc2), add.expect(a2, b2)) < 1e-6
    np.testing.assert_array_equal(add.result(), first)

    # aclSetTensorAddr numbers outputs after inputs: slot 2 is output 0
    pc3, _ = npu.empty(add.shape, np.float32)
    assert opsnn.aclSetTensorAddr(ex, 2, None, pc3) == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()
    assert rel_err(add.result(pc3), add.expect(a2, b2)) < 1e-6
    assert opsnn.aclDestroyAclOpExecutor(ex) == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == INVALID and "destroyed" in msg()


def test_rebinding_between_queued_runs_keeps_each_runs_addresses(add, npu):
    """Addresses are bound at phase 2: rebinding the output after a run is queued (the
    device has not run it yet) does not redirect that run."""
    ws, ex, _ = add.prepare()
    opsnn.aclSetAclOpExecutorRepeatable(ex)
    pc2, _ = npu.empty(add.shape, np.float32)
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    assert opsnn.aclSetOutputTensorAddr(ex, 0, None, pc2) == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()
    assert rel_err(add.result(), add.expect()) < 1e-6
    assert rel_err(add.result(pc2), add.expect()) < 1e-6


@pytest.mark.parametrize("setter,count", [(opsnn.aclSetInputTensorAddr, 2), (opsnn.aclSetOutputTensorAddr, 1),
                                          (opsnn.aclSetTensorAddr, 3)])
def test_set_addr_index_out_of_range_is_161002(add, setter, count):
    """Add has inputs 0, 1 and output 0 (slots 0..2): any other index, a negative, a
    bool or a non-int index is 161002 naming the range; the executor is unharmed."""
    ws, ex, _ = add.prepare()
    for bad in (count, count + 5, -1, True, 1.0, "0", None):
        assert setter(ex, bad, None, add.pa) == INVALID, bad
        assert "out of range" in msg() and f"[0, {count})" in msg()
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()
    assert rel_err(add.result(), add.expect()) < 1e-6


def test_set_addr_bad_address_or_tensor_is_161002(add):
    ws, ex, _ = add.prepare()
    for addr in (add.pa + 4, add.pa + 16, -32, 1.5, None, True):
        assert opsnn.aclSetInputTensorAddr(ex, 0, None, addr) == INVALID, addr
        assert "32-byte aligned" in msg()
    assert opsnn.aclSetInputTensorAddr(ex, 0, "tensor", add.pa) == INVALID
    assert "aclTensor" in msg()


@pytest.mark.parametrize("fn", [opsnn.aclSetAclOpExecutorRepeatable, opsnn.aclDestroyAclOpExecutor,
                                lambda e: opsnn.aclSetInputTensorAddr(e, 0, None, 64),
                                lambda e: opsnn.aclSetOutputTensorAddr(e, 0, None, 64),
                                lambda e: opsnn.aclSetTensorAddr(e, 0, None, 64),
                                lambda e: opsnn.aclnnAdd(0, 0, e, 0)])
def test_null_and_foreign_executors(npu, fn):
    """Every lifecycle call: None is 161001 ("null"), a non-executor is 161002."""
    assert fn(None) == NULLPTR and "null" in msg()
    for junk in (42, "executor", object()):
        assert fn(junk) == INVALID
        assert "aclOpExecutor" in msg()


def test_destroy_rules(add):
    """Destroy twice is 161002; destroying an unrun single-use executor is allowed (it
    then cannot run); a single-use executor released by its run cannot be destroyed."""
    ws, ex, _ = add.prepare()
    assert opsnn.aclDestroyAclOpExecutor(ex) == 0
    assert opsnn.aclDestroyAclOpExecutor(ex) == INVALID and "destroyed" in msg()
    assert opsnn.aclnnAdd(0, ws, ex, 0) == INVALID and "destroyed" in msg()
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == INVALID and "destroyed" in msg()
    assert opsnn.aclSetInputTensorAddr(ex, 0, None, add.pa) == INVALID and "destroyed" in msg()

    ws, ex, _ = add.prepare()
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    assert opsnn.aclDestroyAclOpExecutor(ex) == INVALID and "released" in msg()
    assert opsnn.aclSetAclOpExecutorRepeatable(ex) == INVALID and "released" in msg()
    assert opsnn.aclSetOutputTensorAddr(ex, 0, None, add.pc) == INVALID and "released" in msg()
    sync()


def test_workspace_smaller_than_asked_is_161002(npu, rng):
    """LayerNorm's multi-pass strategy needs a workspace: less than asked is 161002
    naming both sizes, a null address with the right size is 161001, a non-int size
    161002; the refused runs do not consume the executor."""
    x = rng.standard_normal((8, 96)).astype(np.float32)
    px, tx = npu.to_device(x)
    py, ty = npu.empty(x.shape, np.float32)
    norm = opsnn.aclCreateIntArray([96])
    ws, ex, ret = opsnn.aclnnLayerNormGetWorkspaceSize(tx, norm, None, None, 1e-5, ty, strategy="multi_pass")
    assert ret == 0 and ws > 0, msg()
    small = npu.malloc(ws)
    assert opsnn.aclnnLayerNorm(small, ws - 32, ex, 0) == INVALID
    assert "smaller" in msg() and str(ws) in msg() and str(ws - 32) in msg()
    assert opsnn.aclnnLayerNorm(0, ws, ex, 0) == NULLPTR and "null" in msg()
    assert opsnn.aclnnLayerNorm(small, float(ws), ex, 0) == INVALID and "must be an int" in msg()
    assert opsnn.aclnnLayerNorm("0x10", ws, ex, 0) == INVALID and "not a device address" in msg()
    assert opsnn.aclnnLayerNorm(np.uint64(small), np.int64(ws), ex, 0) == 0    # numpy integers are fine
    sync()
    x64 = x.astype(np.float64)
    ref = (x64 - x64.mean(-1, keepdims=True)) / np.sqrt(x64.var(-1, keepdims=True) + 1e-5)
    assert rel_err(npu.to_host(py, x.shape, np.float32), ref) < 1e-5


def test_executor_of_another_op_is_161002_and_not_consumed(add, npu):
    _, relu_ex, ret = opsnn.aclnnReluGetWorkspaceSize(add.tc, add.tc)
    assert ret == 0
    assert opsnn.aclnnAdd(0, 0, relu_ex, 0) == INVALID and "aclnnRelu" in msg()
    ws, add_ex, _ = add.prepare()
    assert opsnn.aclnnRelu(0, 0, add_ex, 0) == INVALID and "aclnnAdd" in msg()
    assert opsnn.aclnnAdd(0, ws, add_ex, 0) == 0          # still usable
    assert opsnn.aclnnRelu(0, 0, relu_ex, 0) == 0
    sync()


def test_bad_stream_is_361001_and_not_consumed(add):
    ws, ex, _ = add.prepare()
    assert opsnn.aclnnAdd(0, ws, ex, 424242) == RUNTIME and "424242" in msg()
    assert not ex.released
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()


def test_slot_without_address_is_161001_until_bound(npu, rng):
    """A tensor created with address 0 can be prepared; phase 2 refuses it (naming the
    slot) until aclSetInputTensorAddr gives it one."""
    a = rng.standard_normal((2, 32)).astype(np.float32)
    pa, ta = npu.to_device(a)
    unbound = opsnn.aclCreateTensor(a.shape, F32, None, 0, ND, a.shape, 0)
    pc, tc = npu.empty(a.shape, np.float32)
    ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(ta, unbound, 1.0, tc)
    assert ret == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == NULLPTR and "input 1 has no device address" in msg()
    assert opsnn.aclSetInputTensorAddr(ex, 1, unbound, pa) == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0
    sync()
    assert rel_err(npu.to_host(pc, a.shape, np.float32), 2.0 * a.astype(np.float64)) < 1e-6


def test_run_without_a_device_or_on_another_chip_is_361001(add):
    """An executor outlives the device it was prepared for: after acl.finalize phase 2
    is 361001; on a device with a different chip it is 361001 naming both chips."""
    ws, ex, _ = add.prepare()
    assert acl.finalize() == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == RUNTIME and "acl.init" in msg()
    assert acl.init(chip="ascend910b4") == 0 and acl.rt.set_device(0) == 0
    assert opsnn.aclnnAdd(0, ws, ex, 0) == RUNTIME and "tiny" in msg() and "ascend910b4" in msg()
    assert not ex.released


def _spec(ub_bytes: int) -> KernelSpec:
    prog = BlockProgram((TileSpec((Stage(Pipe.VECTOR, vector_bytes=256),)),))
    return KernelSpec("Synthetic", CoreType.AIV, (prog,), buffers={Buffer.UB: ub_bytes})


def test_builder_failures_become_statuses(npu):
    """prepare() turns every builder outcome into a status: a malformed argument 161002,
    an unexpected exception 561000, no executor 561101, a kernel bigger than the
    chip's UB 561002 (checked in phase 1, so phase 2 never has to)."""
    def typeerr(chip):
        raise TypeError("no")

    def boom(chip):
        return 1 // 0

    def nothing(chip):
        return None

    def too_big(chip):
        return aclOpExecutor("Synthetic", [PreparedKernel(_spec(chip.ub_bytes + 32), lambda a, w: None)], [], [])

    for build, code, needle in ((typeerr, INVALID, "bad argument"), (boom, 561000, "ZeroDivisionError"),
                                (nothing, 561101, "NoneType"), (too_big, 561002, "UB")):
        assert prepare("Synthetic", build) == (0, None, code)
        assert needle in msg(), msg()


def test_prepare_without_device_is_361001(npu):
    assert acl.finalize() == 0
    assert acl.init(chip="tiny") == 0
    t = opsnn.aclCreateTensor((4,), F32, None, 0, ND, (4,), 0)
    assert opsnn.aclnnReluGetWorkspaceSize(t, t)[2] == RUNTIME and "set_device" in msg()


def test_executor_built_by_hand_runs_through_the_checked_path(npu):
    """An executor constructed directly (not through prepare) still runs: phase 2 checks
    its kernels against the chip once, then launches (a body that writes 7s)."""
    ptr = npu.malloc(128)
    out = opsnn.aclCreateTensor((32,), F32, None, 0, ND, (32,), ptr)

    def make(addrs, ws):
        def body(mem):
            mem.array(addrs[0], (32,), np.float32)[...] = 7.0
        return body
    ex = aclOpExecutor("Synthetic", [PreparedKernel(_spec(1024), make)], [], [out])
    assert execute("Synthetic", 0, 0, ex, 0) == 0 and ex.released
    sync()
    np.testing.assert_array_equal(npu.to_host(ptr, (32,), np.float32), np.full(32, 7.0, np.float32))
    too_big = aclOpExecutor("Synthetic", [PreparedKernel(_spec(10 ** 9), make)], [], [out])
    assert execute("Synthetic", 0, 0, too_big, 0) == RUNTIME and "UB" in msg()


def test_lifecycle_calls_never_raise_on_garbage(add):
    """Fuzz the lifecycle calls with odd arguments: always an int status."""
    ws, ex, _ = add.prepare()
    junk = [None, 0, -1, 2 ** 70, 1.5, "x", object(), [], ex]
    for a in junk:
        for b in junk:
            for fn in (opsnn.aclSetInputTensorAddr, opsnn.aclSetOutputTensorAddr, opsnn.aclSetTensorAddr):
                assert isinstance(fn(ex, a, None, b), int)
            assert isinstance(opsnn.aclnnAdd(a, b, ex if a is None else a, 0), int)
    assert runtime().device is not None
