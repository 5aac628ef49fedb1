"""The Pythonic layer (acl_runtime.api): Session, DeviceArray, Stream/Event, with
opsnn.run_op on top, and typed exceptions that carry the CANN status in ``.code``.

(Over 300 lines on purpose: the Pythonic layer's classes are tested together because their lifetimes interlock (Session owns DeviceArray, Stream and Event).)
"""
from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import opsnn
from acl_runtime import acl, api
from acl_runtime.api import (AclRuntimeError, DeviceArray, Event, InvalidParamError, KernelError, MemcpyKind,
                             MemoryAccessError, NotInitializedError, OutOfMemoryError,
                             RepeatInitializeError, Session, SyncTimeoutError)
from acl_runtime.runtime import runtime
from npu_sim.chips.presets import TINY
from opsnn import OpError, run_op

from .conftest import fill_body, vector_launch


@pytest.fixture
def s(clean):
    with Session("tiny") as sess:
        yield sess


# ---- session lifecycle ---------------------------------------------------------------------------
def test_session_is_a_context_manager(clean):
    """Entering inits ACL and sets device 0; leaving finalises, even on an exception."""
    with Session("tiny") as sess:
        assert api.active_session() is sess
        assert runtime().initialized and runtime().device_id == 0
        assert sess.chip.name == "tiny"
    assert api.active_session() is None and not runtime().initialized
    with pytest.raises(ZeroDivisionError):
        with Session("tiny"):
            1 / 0
    assert not runtime().initialized
    with Session(TINY.model_copy(update={"name": "custom"})) as sess:   # a ChipConfig works too
        assert sess.chip.name == "custom"


def test_sessions_do_not_nest(s):
    """A second Session while one is open is refused with RepeatInitializeError (100002);
    the open one keeps working."""
    with pytest.raises(RepeatInitializeError) as exc:
        with Session("tiny"):
            pass
    assert exc.value.code == 100002 and "do not nest" in str(exc.value)
    assert s.to_device(np.arange(3, dtype=np.int32)).numpy().tolist() == [0, 1, 2]


def test_session_refused_when_binding_already_initialised(clean):
    """ACL initialised through the binding: a Session cannot take over the context."""
    assert acl.init(chip="tiny") == 0
    with pytest.raises(RepeatInitializeError) as exc:
        Session("tiny").open()
    assert exc.value.code == 100002
    assert api.active_session() is None and runtime().initialized


@pytest.mark.parametrize("chip", ["ascend9999", "nowhere.yaml"])
def test_session_with_unknown_chip(clean, chip):
    """An unknown chip is InvalidParamError (100000) and leaves ACL uninitialised."""
    with pytest.raises(InvalidParamError) as exc:
        Session(chip).open()
    assert exc.value.code == 100000
    assert not runtime().initialized and api.active_session() is None


def test_closed_session_raises_not_initialized(clean):
    """Using a Session that is not open, or an array of a closed one, is NotInitializedError (100001)."""
    sess = Session("tiny")
    with pytest.raises(NotInitializedError) as exc:
        sess.empty((4,), np.float32)
    assert exc.value.code == 100001
    with sess:
        arr = sess.to_device(np.ones(4, np.float32))
        st = sess.stream()
    for call in (arr.numpy, arr.free, st.synchronize, lambda: arr.tensor):
        with pytest.raises(NotInitializedError):
            call()
    sess.close()   # closing twice is harmless


def test_finalize_through_the_binding_ends_the_session(clean):
    """acl.finalize() behind a Session's back: its objects raise NotInitializedError and
    never touch a later context's memory; a new Session can open."""
    with Session("tiny") as old:
        arr = old.to_device(np.ones(4, np.float32))
        assert acl.finalize() == 0
        with Session("tiny") as new:
            again = new.to_device(np.full(4, 2.0, np.float32))
            assert again.ptr != arr.ptr                  # each device has its own address space
            with pytest.raises(NotInitializedError):
                arr.numpy()
            assert again.numpy().tolist() == [2.0] * 4
    assert not runtime().initialized


# ---- arrays ------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", [np.float32, np.float16, ml_dtypes.bfloat16, np.int32, np.int8, np.float64,
                                   np.bool_])
@pytest.mark.parametrize("shape", [(7,), (3, 5), (2, 3, 4), (), (0, 3)])
def test_to_device_numpy_round_trip(s, rng, dtype, shape):
    """to_device then numpy() gives back the same values, shape and dtype."""
    x = (rng.standard_normal(shape) * 100).astype(dtype)
    d = s.to_device(x)
    assert isinstance(d, DeviceArray)
    assert (d.shape, d.dtype, d.nbytes) == (x.shape, np.dtype(dtype), x.nbytes)
    assert d.ptr % 64 == 0
    y = d.numpy()
    assert y.dtype == x.dtype and y.shape == x.shape
    assert y.tobytes() == x.tobytes()


def test_non_contiguous_host_input_is_copied_contiguously(s):
    """A strided host array goes to the device as its C-contiguous copy."""
    x = np.arange(24, dtype=np.float32).reshape(4, 6)[:, ::2].T
    np.testing.assert_array_equal(s.to_device(x).numpy(), x)
    np.testing.assert_array_equal(np.asarray(s.to_device(x)), x)


def test_empty_is_zero_filled(s):
    """empty() allocates shape x itemsize bytes, zero-filled by the simulator."""
    d = s.empty((3, 4), np.float16)
    assert d.nbytes == 24 and d.size == 12 and d.ndim == 2
    assert not d.numpy().any()
    assert s.empty(5, np.int32).shape == (5,)


def test_copy_from_and_device_to_device(s):
    """copy_from overwrites in place; memcpy between DeviceArrays is DEVICE_TO_DEVICE."""
    a = s.empty((8,), np.float32)
    a.copy_from(np.arange(8, dtype=np.float32))
    b = s.empty((8,), np.float32)
    s.memcpy(b, a, kind=MemcpyKind.DEVICE_TO_DEVICE)
    np.testing.assert_array_equal(b.numpy(), np.arange(8))
    host = np.zeros(8, np.float32)
    s.memcpy(host, b)                          # kind inferred: DEVICE_TO_HOST
    np.testing.assert_array_equal(host, np.arange(8))


def test_async_copies_on_a_stream(s):
    """to_device/numpy with a stream use aclrtMemcpyAsync on it; numpy() syncs that stream."""
    st = s.stream()
    x = np.linspace(0, 1, 100, dtype=np.float32)
    d = s.to_device(x, stream=st)
    np.testing.assert_array_equal(d.numpy(stream=st), x)


def test_tensor_is_an_acl_tensor_over_the_buffer(s):
    """.tensor is an ND aclTensor with the array's shape, dtype and address, made once."""
    d = s.to_device(np.ones((2, 3), ml_dtypes.bfloat16))
    t = d.tensor
    assert isinstance(t, opsnn.aclTensor)
    assert t.view_shape == (2, 3) and t.data_type == opsnn.aclDataType.ACL_BF16
    assert t.tensor_data == d.ptr and t.storage_format == opsnn.aclFormat.ACL_FORMAT_ND
    assert d.tensor is t


def test_memcpy_kind_enum_matches_cann():
    """MemcpyKind mirrors aclrtMemcpyKind."""
    assert [int(k) for k in MemcpyKind] == [0, 1, 2, 3]
    assert MemcpyKind.HOST_TO_DEVICE == acl.ACL_MEMCPY_HOST_TO_DEVICE


# ---- typed exceptions --------------------------------------------------------------------------
def test_error_table_maps_every_code():
    """One table maps each ACL code to its class; unknown codes give the base class."""
    cases = {100000: InvalidParamError, 107000: InvalidParamError, 100001: NotInitializedError,
             100002: RepeatInitializeError, 207001: OutOfMemoryError, 200000: OutOfMemoryError,
             507046: SyncTimeoutError, 507047: SyncTimeoutError, 507899: MemoryAccessError, 507015: KernelError}
    for code, cls in cases.items():
        err = api.error_from_code(code, "why")
        assert type(err) is cls and isinstance(err, AclRuntimeError)
        assert err.code == code and err.message == "why" and str(err).startswith(f"[{code} ")
    err = api.error_from_code(999, "odd")
    assert type(err) is AclRuntimeError and err.code == 999


def test_out_of_memory(s):
    """An allocation larger than HBM raises OutOfMemoryError (207001)."""
    with pytest.raises(OutOfMemoryError) as exc:
        s.empty((s.chip.hbm_bytes + 1,), np.uint8)
    assert exc.value.code == 207001 and "out of device memory" in exc.value.message
    assert acl.get_recent_err_msg().startswith("[207001")   # remembered, as in the binding


def test_invalid_params(s):
    """Bad sizes, double free, oversize copies, bad or mismatched kinds: InvalidParamError (100000)."""
    d = s.empty((4,), np.float32)
    cases = [
        lambda: s.empty((-1, 4), np.float32),
        lambda: d.copy_from(np.ones(5, np.float32)),                        # shape mismatch
        lambda: s.memcpy(d, np.ones(8, np.float32)),                        # count > dst_max
        lambda: s.memcpy(d, np.ones(4, np.float32), nbytes=64),             # reads past src
        lambda: s.memcpy(d, np.ones(4, np.float32), kind=7),                # unknown kind
        lambda: s.memcpy(d, np.ones(4, np.float32), kind=MemcpyKind.DEVICE_TO_HOST),  # wrong kind
        lambda: s.memcpy(np.ones(4, np.float32)[::2], d),                   # non-contiguous host
        lambda: s.memcpy(d, [1.0, 2.0]),                                    # not an array
    ]
    for call in cases:
        with pytest.raises(InvalidParamError) as exc:
            call()
        assert exc.value.code == 100000 and exc.value.message
    d.free()
    with pytest.raises(InvalidParamError) as exc:
        d.free()
    assert "double free" in exc.value.message


def test_use_after_free(s):
    """A freed array cannot be read, written or wrapped; a stale pointer copy is caught by the runtime."""
    d = s.to_device(np.ones(16, np.float32))
    stale = DeviceArray(s, d.ptr, d.shape, d.dtype)
    d.free()
    for call in (d.numpy, lambda: d.copy_from(np.ones(16, np.float32)), lambda: d.tensor):
        with pytest.raises(InvalidParamError, match="freed"):
            call()
    with pytest.raises(InvalidParamError, match="freed") as exc:
        stale.copy_from(np.ones(16, np.float32))
    assert exc.value.code == 100000


def test_sync_timeout(s):
    """Synchronizing a stream that waits on an event nobody records raises SyncTimeoutError (507046)."""
    st, ev = s.stream(), s.event()
    st.wait(ev)
    s.to_device(np.ones(4, np.float32), stream=st)
    with pytest.raises(SyncTimeoutError) as exc:
        st.synchronize()
    assert exc.value.code == 507046 and "nobody records" in exc.value.message
    with pytest.raises(SyncTimeoutError):
        s.synchronize()


def test_kernel_reading_freed_memory_raises_memory_access_error(s):
    """A kernel whose body touches freed memory fails on the device; the sync reports
    MemoryAccessError (507899)."""
    d = s.empty((16,), np.float32)
    ptr = d.ptr
    d.free()
    runtime().launch_kernel(0, vector_launch(10, fill_body(ptr, 16, 1.0)))
    with pytest.raises(MemoryAccessError) as exc:
        s.synchronize()
    assert exc.value.code == 507899 and "freed" in exc.value.message


def test_failing_kernel_raises_kernel_error(s):
    """A kernel body that fails for another reason is KernelError (507015) at the sync."""
    def boom(mem):
        raise RuntimeError("boom")
    st = s.stream()
    runtime().launch_kernel(st.handle, vector_launch(10, boom, name="Boom"))
    with pytest.raises(KernelError) as exc:
        st.synchronize()
    assert exc.value.code == 507015 and "Boom" in exc.value.message and "boom" in exc.value.message


# ---- streams and events ------------------------------------------------------------------------
def test_event_elapsed_ms_and_ordering(s):
    """Event.elapsed_ms is the device time between two records (ms); stream.wait orders another stream."""
    a, b = s.stream(), s.stream()
    start, end = s.event(), s.event()
    with pytest.raises(InvalidParamError):
        Event.elapsed_ms(start, end)                     # not recorded yet
    out = s.empty((256,), np.float32)
    start.record(a)
    runtime().launch_kernel(a.handle, vector_launch(50_000, fill_body(out.ptr, 256, 3.0)))
    a.record(end)
    b.wait(end)
    host = np.zeros(256, np.float32)
    s.memcpy(host, out, stream=b)
    b.synchronize()
    assert (host == 3.0).all()                            # the copy waited for the kernel
    ms = Event.elapsed_ms(start, end)
    dev = runtime().device
    assert ms == pytest.approx((dev.events[end.handle].timestamp_ns - dev.events[start.handle].timestamp_ns) / 1e6)
    assert ms * 1e6 >= 50_000
    end.synchronize()
    end.destroy()
    with pytest.raises(InvalidParamError):
        end.record(a)


def test_stream_destroy(s):
    """A destroyed stream's handle is invalid afterwards."""
    st = s.stream()
    st.destroy()
    with pytest.raises(InvalidParamError, match="does not exist"):
        st.synchronize()
    with pytest.raises(InvalidParamError, match="default stream"):
        s.default_stream.destroy()


def test_clocks(s):
    """elapsed_ns is the device clock: it stays put while work is only enqueued and
    advances at synchronization; host_ns counts API costs."""
    assert s.elapsed_ns == 0.0
    runtime().launch_kernel(0, vector_launch(10_000))
    assert s.elapsed_ns == 0.0 and s.host_ns > 0
    s.synchronize()
    assert s.elapsed_ns >= 10_000
    assert s.host_ns >= s.elapsed_ns


# ---- operators ----------------------------------------------------------------------------------
def test_run_op_matmul(s, rng):
    """run_op runs both phases on DeviceArrays; the result matches float64 numpy."""
    a = rng.standard_normal((33, 20)).astype(np.float32)
    b = rng.standard_normal((20, 17)).astype(np.float32)
    out = s.empty((33, 17), np.float32)
    ex = run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, s.to_device(a), s.to_device(b), out, 0)
    assert ex.op_name == "Matmul"
    np.testing.assert_allclose(out.numpy(), a.astype(np.float64) @ b, rtol=1e-5, atol=1e-5)


def test_run_op_errors_carry_the_aclnn_status(s):
    """A phase-1 failure raises OpError with the aclnn code and aclGetRecentErrMsg text."""
    a, b = s.empty((4, 5), np.float32), s.empty((6, 3), np.float32)
    out = s.empty((4, 3), np.float32)
    with pytest.raises(OpError) as exc:
        run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, a, b, out, 0)
    assert exc.value.code == 161002 and "inner dimensions" in str(exc.value)
    assert exc.value.message == opsnn.aclGetRecentErrMsg()
    with pytest.raises(OpError) as exc:
        run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, None, b, out, 0)
    assert exc.value.code == 161001
    # phase 2 failure: the launch refuses an executor from another op
    relu_ws, relu_ex, _ = opsnn.aclnnReluGetWorkspaceSize(a.tensor, a.tensor)
    with pytest.raises(OpError) as exc:
        run_op(lambda: (relu_ws, relu_ex, 0), opsnn.aclnnMatmul)
    assert exc.value.code == 161002 and "aclnnRelu" in exc.value.message


def _with_workspace(nbytes):
    """A phase 1 that asks for ``nbytes`` of workspace (no built-in op needs one yet)."""
    def prep(*args):
        ws, ex, ret = opsnn.aclnnReluGetWorkspaceSize(*args)
        ex.workspace_size = nbytes
        return nbytes, ex, ret
    return prep


def test_run_op_workspace_is_shared_per_stream(s):
    """Ops on one stream reuse one workspace; a larger request replaces it and the old
    one is freed at the next synchronize."""
    x = s.to_device(np.array([-1.0, 2.0, -3.0, 4.0], np.float32))
    y = s.empty((4,), np.float32)
    mem = runtime().device.memory
    run_op(_with_workspace(1000), opsnn.aclnnRelu, x, y)
    used = mem.used_bytes
    run_op(_with_workspace(500), opsnn.aclnnRelu, x, y)
    assert mem.used_bytes == used                        # reused
    st = s.stream()
    run_op(_with_workspace(1000), opsnn.aclnnRelu, x, y, stream=st)
    assert mem.used_bytes == used + 1024                 # one per stream
    run_op(_with_workspace(5000), opsnn.aclnnRelu, x, y)
    assert mem.used_bytes == used + 1024 + 5056          # grown; the old one retired
    s.synchronize()
    assert mem.used_bytes == used + 5056
    np.testing.assert_array_equal(y.numpy(), [0, 2, 0, 4])


def test_run_op_without_session_uses_binding_context(npu):
    """With ACL initialised by the binding, run_op allocates and frees its workspace itself."""
    import opsnn as o
    mem = runtime().device.memory
    ptr, t = npu.to_device(np.array([-2.0, 5.0], np.float32))
    optr, ot = npu.empty((2,), np.float32)
    used = mem.used_bytes
    run_op(_with_workspace(4096), o.aclnnRelu, t, ot)
    assert mem.used_bytes == used
    assert npu.to_host(optr, (2,), np.float32).tolist() == [0.0, 5.0]


def test_timing_only_session(clean, rng):
    """timing_only keeps no data: ops run and time advances, numpy() refuses."""
    with Session("tiny", timing_only=True) as sess:
        a = sess.to_device(rng.standard_normal((64, 64)).astype(np.float16))
        out = sess.empty((64, 64), np.float16)
        run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, a, a, out, 0)
        sess.synchronize()
        assert sess.elapsed_ns > 0
        with pytest.raises(InvalidParamError, match="timing_only"):
            out.numpy()
