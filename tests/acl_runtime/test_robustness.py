"""Robustness of both API levels against bad arguments: the pyACL-style binding never
raises (status + ``acl.get_recent_err_msg()``), the Pythonic layer raises only its
typed exceptions (``.code`` carries the CANN status), numpy integers are accepted
wherever an int is expected and bools/floats are refused, and handles from a closed
session never reach the next session's memory.

Statuses (acl_runtime/constants.py): 100000 ACL_ERROR_INVALID_PARAM, 100004
ACL_ERROR_INVALID_DEVICE, 200000 ACL_ERROR_BAD_ALLOC, 500000 ACL_ERROR_INTERNAL_ERROR
(CANN: "unrecognized errors are mapped to 500000"), 507899 simulator memory access.

(Over 300 lines on purpose: one table-driven sweep of bad arguments per API call; split, the shared case tables would be repeated.)
"""
from __future__ import annotations

import numpy as np
import pytest

import opsnn
from acl_runtime import acl, api
from acl_runtime.api import (AclRuntimeError, InvalidParamError, MemoryAccessError, NotInitializedError,
                             OutOfMemoryError, Session)
from acl_runtime.runtime import runtime
from npu_sim.chips.presets import TINY

H2D, D2H, D2D, H2H = (acl.ACL_MEMCPY_HOST_TO_DEVICE, acl.ACL_MEMCPY_DEVICE_TO_HOST,
                      acl.ACL_MEMCPY_DEVICE_TO_DEVICE, acl.ACL_MEMCPY_HOST_TO_HOST)


@pytest.fixture
def dev(clean):
    """ACL initialised on tiny with device 0 set (through the binding)."""
    assert acl.init(chip="tiny") == 0
    assert acl.rt.set_device(0) == 0
    yield
    # the `clean` fixture finalises


def _msg() -> str:
    return acl.get_recent_err_msg()


# ---- A. acl.init and the chip argument ---------------------------------------------------------------
@pytest.mark.parametrize("chip, frag", [(123, "int"), (1.5, "float"), (b"tiny", "bytes"), (["tiny"], "list")])
def test_init_with_a_non_string_chip_returns_100000(clean, chip, frag):
    """A chip that is not a name, a path or a ChipConfig is an invalid parameter (it used
    to raise AttributeError from ``.endswith``)."""
    assert acl.init(chip=chip) == 100000
    assert "preset name" in _msg() and frag in _msg()
    assert not runtime().initialized


def test_init_with_a_yaml_syntax_error_returns_100000(clean, tmp_path):
    """A config file that is not YAML: 100000 naming the file (not a yaml.ParserError)."""
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n  aic_count: 2\n")
    assert acl.init(chip=str(bad)) == 100000
    assert "bad.yaml" in _msg() and "not valid YAML" in _msg()
    assert not runtime().initialized


def test_init_with_an_invalid_chip_config_returns_pydantic_message(clean, tmp_path):
    """A config that fails validation: 100000 with pydantic's message naming the field."""
    path = tmp_path / "chip.yaml"
    TINY.to_file(path)
    path.write_text(path.read_text().replace("malloc_align_bytes: 64", "malloc_align_bytes: 0"))
    assert acl.init(chip=str(path)) == 100000
    assert "malloc_align_bytes" in _msg() and "power of two" in _msg() and "validation error" in _msg()
    assert not runtime().initialized


def test_init_validates_the_npu_sim_chip_variable(clean, monkeypatch):
    """NPU_SIM_CHIP=bogus: acl.init() returns 100000 naming the variable (it used to
    return 0 and let set_device raise KeyError); a valid value is honoured."""
    monkeypatch.setenv("NPU_SIM_CHIP", "bogus")
    assert acl.init() == 100000
    assert "NPU_SIM_CHIP" in _msg() and "bogus" in _msg() and "unknown chip" in _msg()
    assert not runtime().initialized
    assert acl.init(chip="tiny") == 0       # an explicit chip wins over the variable
    assert acl.rt.set_device(0) == 0 and acl.rt.get_soc_name() == ("tiny", 0)
    assert acl.finalize() == 0
    monkeypatch.setenv("NPU_SIM_CHIP", "ascend910b4")
    assert acl.init() == 0 and acl.rt.set_device(0) == 0
    assert acl.rt.get_soc_name() == ("ascend910b4", 0)


# ---- A. memory -------------------------------------------------------------------------------------------
def test_malloc_host_too_large_returns_bad_alloc(dev):
    """A host buffer that cannot be allocated: ACL_ERROR_BAD_ALLOC (200000), not MemoryError."""
    assert acl.rt.malloc_host(2 ** 62) == (0, 200000)
    assert "malloc_host" in _msg() and str(2 ** 62) in _msg()
    assert acl.rt.malloc_host(2 ** 64) == (0, 100000)    # beyond any numpy array
    assert "malloc_host" in _msg()
    p, ret = acl.rt.malloc_host(64)
    assert ret == 0 and acl.rt.free_host(p) == 0


@pytest.mark.parametrize("ptr, frag", [(None, "NoneType"), ("0x100", "str"), (1.5, "float"), (True, "bool"),
                                       (-64, "non-negative")])
def test_free_with_a_non_pointer_has_a_real_message(dev, ptr, frag):
    """free / free_host of something that is not a pointer: 100000 saying what was passed
    (free(None) used to report a format-string error)."""
    assert acl.rt.free(ptr) == 100000
    assert "free" in _msg() and frag in _msg() and "__format__" not in _msg()
    assert acl.rt.free_host(ptr) == 100000
    assert "free_host" in _msg() and frag in _msg()


def test_numpy_integers_are_accepted_everywhere(dev):
    """Device ids, sizes, policies, pointers, counts, kinds and handles may be numpy
    integers (np.int64 from shapes, np.uint64 from pointer arithmetic)."""
    assert acl.rt.set_device(np.int64(0)) == 0
    p, ret = acl.rt.malloc(np.int64(64), np.int32(0))
    assert ret == 0
    host = np.arange(16, dtype=np.float32)
    hp = np.uint64(acl.util.numpy_to_ptr(host))
    assert acl.rt.memcpy(np.uint64(p), np.int64(64), hp, np.uint64(64), np.int64(H2D)) == 0, _msg()
    out = np.zeros(16, np.float32)
    op = np.uint64(acl.util.numpy_to_ptr(out))
    s, _ = acl.rt.create_stream()
    e, _ = acl.rt.create_event()
    assert acl.rt.memcpy_async(op, np.int32(64), np.uint64(p), np.int16(64), np.uint8(D2H), np.int64(s)) == 0, _msg()
    assert acl.rt.record_event(np.int64(e), np.uint32(s)) == 0
    assert acl.rt.stream_wait_event(np.int64(0), np.int64(e)) == 0
    assert acl.rt.synchronize_stream(np.int64(s)) == 0
    assert acl.rt.synchronize_event(np.int64(e)) == 0
    assert out.tolist() == host.tolist()
    view = acl.util.ptr_to_numpy(op, (np.int64(4), np.int32(4)), np.float32)
    assert view.shape == (4, 4) and view.ravel().tolist() == host.tolist()
    hp2, ret = acl.rt.malloc_host(np.int64(32))
    assert ret == 0 and acl.rt.free_host(np.uint64(hp2)) == 0
    assert acl.rt.set_sys_param_opt(np.int64(acl.ACL_OPT_DETERMINISTIC), np.int64(1)) == 0
    assert acl.rt.get_sys_param_opt(np.int32(0)) == (1, 0)
    assert acl.rt.destroy_event(np.int64(e)) == 0 and acl.rt.destroy_stream(np.int64(s)) == 0
    assert acl.rt.free(np.uint64(p)) == 0
    assert acl.rt.reset_device(np.int64(0)) == 0


@pytest.mark.parametrize("device_id", [True, False, 0.0, np.float64(0)])
def test_device_id_bool_or_float_is_refused(dev, device_id):
    """set_device(False) used to open device 0 (False == 0): bools and floats are not ids."""
    assert acl.rt.set_device(device_id) == 100004
    assert "device id must be an int" in _msg() and type(device_id).__name__ in _msg()
    assert acl.rt.reset_device(device_id) == 100004


@pytest.mark.parametrize("call, frag", [
    (lambda p, h: acl.rt.malloc(True), "size"),
    (lambda p, h: acl.rt.malloc(64.0), "size"),
    (lambda p, h: acl.rt.malloc(64, True), "policy"),
    (lambda p, h: acl.rt.malloc_host(True), "size"),
    (lambda p, h: acl.rt.memcpy(p, 64, h, 64.0, H2D), "count"),
    (lambda p, h: acl.rt.memcpy(p, True, h, 1, H2D), "dst_max"),
    (lambda p, h: acl.rt.memcpy(float(p), 64, h, 64, H2D), "dst"),
    (lambda p, h: acl.rt.memcpy(p, 64, h, 64, True), "kind"),
    (lambda p, h: acl.rt.memcpy(p, 64, h, 64, 1.0), "kind"),
    (lambda p, h: acl.rt.memcpy_async(p, 64, h, 64, H2D, True), "stream"),
    (lambda p, h: acl.rt.memcpy_async(p, 64, h, 64, H2D, 1.0), "stream"),
    (lambda p, h: acl.rt.synchronize_stream("0"), "stream"),
    (lambda p, h: acl.rt.record_event(True, 0), "event"),
    (lambda p, h: acl.rt.set_sys_param_opt(True, 1), "aclSysParamOpt"),
    (lambda p, h: acl.rt.set_sys_param_opt(0, True), "value"),
])
def test_bools_and_floats_are_refused_with_a_clear_message(dev, call, frag):
    """True == 1 and 64.0 == 64 in Python, but an ACL argument of the wrong type is a
    caller bug: 100000 naming the argument and the type."""
    p, _ = acl.rt.malloc(64)
    h = acl.util.numpy_to_ptr(np.zeros(16, np.float32))
    ret = call(p, h)
    assert (ret[1] if isinstance(ret, tuple) else ret) == 100000
    assert frag in _msg() and ("bool" in _msg() or "float" in _msg() or "str" in _msg()), _msg()


def test_d2h_into_a_read_only_array_is_refused_at_the_call(dev):
    """The destination of a D2H (or H2H) copy must be writable: 100000 at the memcpy call
    (it used to fail at synchronize as an AICORE exception, 507015)."""
    p, _ = acl.rt.malloc(64)
    ro = np.zeros(16, np.float32)
    ro.flags.writeable = False
    rp = acl.util.numpy_to_ptr(ro)
    assert acl.rt.memcpy(rp, 64, p, 64, D2H) == 100000
    assert "not writable" in _msg() and "dst" in _msg()
    assert acl.rt.memcpy_async(rp, 64, p, 64, D2H, 0) == 100000
    assert acl.rt.memcpy(rp, 64, acl.util.numpy_to_ptr(np.ones(16, np.float32)), 64, H2H) == 100000
    assert "not writable" in _msg()
    assert acl.rt.synchronize_device() == 0                 # nothing was queued
    ro_bytes = np.frombuffer(b"\0" * 64, np.uint8)           # read-only, owned by a bytes object
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(ro_bytes), 64, p, 64, D2H) == 100000
    assert acl.rt.memcpy(p, 64, acl.util.numpy_to_ptr(ro), 64, H2D) == 0     # a read-only source is fine


@pytest.mark.parametrize("shape, dtype, frag", [
    ((-1,), np.float32, "non-negative"), ((2, -3), np.float32, "non-negative"), ((2.0,), np.float32, "float"),
    ((True,), np.float32, "bool"), ("abc", np.float32, "shape"), (None, np.float32, "shape"),
    ((4,), None, "dtype"), ((4,), object, "object"), ((4,), "nope", "dtype"), ((4,), 999, "999"),
    ((4,), True, "bool"), ((2 ** 62, 2 ** 62), np.float32, "not inside a buffer")])
def test_ptr_to_numpy_validates_shape_and_dtype(dev, shape, dtype, frag):
    """ptr_to_numpy((-1,)) used to return a 62-element view and dtype=None float64:
    a bad shape or dtype now returns None with a message."""
    host = np.zeros(64, np.uint8)
    hp = acl.util.numpy_to_ptr(host)
    assert acl.util.ptr_to_numpy(hp, shape, dtype) is None
    assert frag in _msg(), _msg()
    assert acl.util.ptr_to_numpy(hp, (4, 4), np.float32).shape == (4, 4)
    assert acl.util.ptr_to_numpy(hp, 16, 0).dtype == np.float32          # aclDataType code 0 = FLOAT
    assert acl.util.ptr_to_numpy(hp, (), np.float32).shape == ()


def test_unexpected_exceptions_become_statuses(dev, monkeypatch):
    """Catch-all: any exception escaping the runtime becomes a status with its type in
    the message: MemoryError -> 200000, anything else -> 500000; the specific codes
    (100000 for TypeError/ValueError, AclError codes) are kept."""
    rt = runtime()

    def boom(exc):
        def f(*a, **k):
            raise exc
        return f
    monkeypatch.setattr(rt, "create_stream", boom(RuntimeError("simulated bug")))
    assert acl.rt.create_stream() == (0, 500000)
    assert "RuntimeError" in _msg() and "simulated bug" in _msg() and "create_stream" in _msg()
    monkeypatch.setattr(rt, "synchronize_device", boom(KeyError("k")))
    assert acl.rt.synchronize_device() == 500000 and "KeyError" in _msg()
    monkeypatch.setattr(rt, "synchronize_device", boom(AttributeError("no attr")))
    assert acl.rt.synchronize_device() == 500000 and "AttributeError" in _msg()
    monkeypatch.setattr(rt, "malloc", boom(MemoryError("host out of memory")))
    assert acl.rt.malloc(64) == (0, 200000) and "MemoryError" in _msg()
    monkeypatch.setattr(rt, "malloc", boom(ValueError("bad value")))
    assert acl.rt.malloc(64) == (0, 100000) and "bad value" in _msg()
    monkeypatch.setattr(rt, "register_host", boom(IndexError("idx")))
    assert acl.util.numpy_to_ptr(np.zeros(4)) == 0 and "IndexError" in _msg()
    monkeypatch.setattr(rt, "host_view", boom(ZeroDivisionError("div")))
    assert acl.util.ptr_to_numpy(1, (4,), np.uint8) is None and "ZeroDivisionError" in _msg()


# ---- D. the Pythonic layer raises only typed exceptions ---------------------------------------------
@pytest.fixture
def s(clean):
    with Session("tiny") as sess:
        yield sess


F32 = np.float32


def test_empty_with_an_overflowing_shape_is_refused(s):
    """(2**62, 2**62) float32 used to wrap to 0 bytes in int64 and succeed: sizes are
    Python ints, so this is far beyond HBM (OutOfMemoryError, 207001)."""
    with pytest.raises(OutOfMemoryError) as exc:
        s.empty((2 ** 62, 2 ** 62), F32)
    assert exc.value.code == 207001 and str(2 ** 126) in str(exc.value)
    with pytest.raises(OutOfMemoryError):
        s.empty((2 ** 31, 2 ** 31, 4), np.int8)


@pytest.mark.parametrize("shape, dtype, frag", [
    ("abc", F32, "shape"), (None, F32, "shape"), ((2,), "nope", "dtype"), (1.7, F32, "float"), ((2, 1.0), F32, "float"),
    ((True,), F32, "bool"), ((2, -1), F32, "negative"), ((2,), object, "aclDataType"), ((2,), "<U1", "aclDataType"),
    ((2,), None, "dtype"), ({2: 3}, F32, "shape")])
def test_empty_refuses_bad_shapes_and_dtypes(s, shape, dtype, frag):
    """Every bad shape or dtype is an InvalidParamError (100000) naming the problem; 1.7
    is no longer silently truncated to 1, object / str dtypes have no aclDataType."""
    with pytest.raises(InvalidParamError) as exc:
        s.empty(shape, dtype)
    assert exc.value.code == 100000 and frag in str(exc.value), str(exc.value)
    with pytest.raises(InvalidParamError):
        s.to_device(np.zeros(2, dtype=object) if dtype is object else np.array(["a", "b"]))


def test_empty_accepts_numpy_integer_dims(s):
    a = s.empty((np.int64(2), np.uint8(3)), np.float16)
    assert a.shape == (2, 3) and all(type(d) is int for d in a.shape) and a.nbytes == 12
    assert s.empty(np.int32(5), F32).shape == (5,)
    assert s.empty((), F32).shape == () and s.empty((0, 4), F32).nbytes == 0


@pytest.mark.parametrize("nbytes, frag", [("4", "str"), (4.0, "float"), (True, "bool"), (-4, "non-negative"),
                                          (100, "reads past src")])
def test_memcpy_nbytes_must_be_a_non_negative_int(s, nbytes, frag):
    d = s.empty((4,), F32)
    with pytest.raises(InvalidParamError) as exc:
        s.memcpy(d, np.ones(4, F32), nbytes=nbytes)
    assert exc.value.code == 100000 and frag in str(exc.value)
    s.memcpy(d, np.arange(4, dtype=F32), nbytes=np.int64(8))
    assert d.numpy().tolist() == [0.0, 1.0, 0.0, 0.0]


@pytest.mark.parametrize("chip, frag", [(123, "int"), (1.5, "float"), ("bogus", "unknown chip")])
def test_session_with_a_bad_chip_raises_invalid_param(clean, chip, frag):
    with pytest.raises(InvalidParamError) as exc:
        Session(chip).open()
    assert exc.value.code == 100000 and frag in str(exc.value)
    assert api.active_session() is None and not runtime().initialized


def test_session_with_a_bad_yaml_file_raises_invalid_param(clean, tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed\n")
    with pytest.raises(InvalidParamError, match="not valid YAML"):
        Session(str(bad)).open()
    TINY.to_file(bad)
    bad.write_text(bad.read_text().replace("clock_hz: 1000000000.0", "clock_hz: .inf"))
    with pytest.raises(InvalidParamError, match="clock_hz") as exc:
        Session(bad).open()
    assert exc.value.code == 100000 and not runtime().initialized


def test_session_default_chip_follows_npu_sim_chip(clean, monkeypatch):
    """Session() and acl.init() pick the same chip: $NPU_SIM_CHIP if set, else ascend910b2."""
    monkeypatch.setenv("NPU_SIM_CHIP", "tiny")
    with Session() as sess:
        assert sess.chip.name == "tiny"
    monkeypatch.delenv("NPU_SIM_CHIP")
    with Session(timing_only=True) as sess:
        assert sess.chip.name == "ascend910b2"
    monkeypatch.setenv("NPU_SIM_CHIP", "bogus")
    with pytest.raises(InvalidParamError, match="NPU_SIM_CHIP"):
        Session().open()
    with Session("tiny") as sess:                  # an explicit chip wins
        assert sess.chip.name == "tiny"


def test_unexpected_exceptions_in_the_pythonic_layer_are_typed(s, monkeypatch):
    """A runtime failure that is not an AclError still surfaces as an AclRuntimeError
    carrying a code (500000, or 200000 for MemoryError) and the exception type."""
    def boom(*a, **k):
        raise RuntimeError("simulated bug")
    monkeypatch.setattr(runtime(), "create_stream", boom)
    with pytest.raises(AclRuntimeError) as exc:
        s.stream()
    assert exc.value.code == 500000 and "RuntimeError" in str(exc.value)

    def oom(*a, **k):
        raise MemoryError("host")
    monkeypatch.setattr(runtime(), "synchronize_device", oom)
    with pytest.raises(OutOfMemoryError) as exc:
        s.synchronize()
    assert exc.value.code == 200000


# ---- E. stale handles across sessions -----------------------------------------------------------------
def test_each_session_has_its_own_address_space(clean):
    """Device addresses do not repeat across sessions: a pointer kept from a closed
    session is outside every allocation of the next one."""
    ptrs = []
    for _ in range(3):
        with Session("tiny") as sess:
            ptrs.append(sess.empty((4,), F32).ptr)
    assert len(set(ptrs)) == 3
    assert all(p % 64 == 0 and 0 < p < 2 ** 64 for p in ptrs)
    assert all(abs(a - b) >= 2 ** 42 for a, b in zip(ptrs, ptrs[1:]))    # more than any HBM apart


def test_stale_pointer_through_the_binding_is_out_of_bounds(clean):
    """A pointer from a finalised context: memcpy is refused (100000, not in any
    allocation) instead of reading the new context's buffer at the same address."""
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    old, _ = acl.rt.malloc(64)
    assert acl.finalize() == 0
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    new, _ = acl.rt.malloc(64)
    assert new != old
    out = np.zeros(16, F32)
    assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), 64, old, 64, D2H) == 100000
    assert "not in any allocation" in _msg()
    assert acl.rt.free(old) == 100000


def test_stale_acl_tensor_from_a_closed_session_is_a_memory_access_error(clean):
    """An aclTensor kept from a closed Session, used in the next one: the kernel's access
    fails at synchronize (MemoryAccessError, 507899) and the new session's data is
    untouched."""
    with Session("tiny") as old:
        a = old.to_device(np.ones(8, F32))
        stale = a.tensor
    with Session("tiny") as new:
        b = new.to_device(np.full(8, 2.0, F32))
        out = new.empty((8,), F32)
        alpha = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
        opsnn.run_op(opsnn.aclnnAddGetWorkspaceSize, opsnn.aclnnAdd, stale, b, alpha, out)
        with pytest.raises(MemoryAccessError) as exc:
            new.synchronize()
        assert exc.value.code == 507899 and "not in any allocation" in str(exc.value)
        assert b.numpy().tolist() == [2.0] * 8
    with pytest.raises(NotInitializedError):
        a.numpy()


# ---- sweeps: no raw exception for any bad value in any position ----------------------------------------
BAD = [None, "x", 1.5, True, -1, 2 ** 70, object(), [1, [2]], np.zeros((2, 2)), {"a": 1}, (), np.float64(2.0)]


def _rt_calls():
    import inspect
    for name, fn in inspect.getmembers(acl.rt, inspect.isfunction):
        if fn.__module__ == acl.rt.__name__:
            yield name, fn, [p for p in inspect.signature(fn).parameters.values()]


@pytest.mark.parametrize("name", [n for n, _, _ in _rt_calls()])
def test_every_binding_call_returns_a_status_for_any_bad_argument(dev, name):
    """Each acl.rt call, with one bad value in each position (the others valid-looking),
    returns a non-zero status and a message; nothing raises."""
    fn, params = next((f, p) for n, f, p in _rt_calls() if n == name)
    good = {"device_id": 0, "size": 64, "policy": 0, "ptr": 0, "dst": 0, "dst_max": 64, "src": 0, "count": 64,
            "kind": H2D, "stream": 0, "event": 0, "start": 0, "end": 0, "opt": 0, "value": 0}
    for i, p in enumerate(params):
        for bad in BAD:
            args = [good.get(q.name, 0) for q in params]
            args[i] = bad
            ret = fn(*args)
            code = ret[1] if isinstance(ret, tuple) else ret
            assert isinstance(code, int), (name, p.name, bad)
            if code:
                assert _msg(), (name, p.name, bad)
    assert acl.rt.synchronize_device() in (0, 507046, 507899, 507015)


def test_every_pythonic_call_raises_only_typed_exceptions(s):
    """The Pythonic layer, fed a bad value in each argument, raises AclRuntimeError
    subclasses or OpError only (never TypeError/AttributeError/ValueError)."""
    from acl_runtime.api import Event
    from opsnn import OpError
    d = s.to_device(np.ones(4, F32))
    st, ev = s.stream(), s.event()
    calls = [lambda v: s.empty(v, F32), lambda v: s.empty((2,), v), lambda v: s.to_device(v),
             lambda v: s.to_device(np.ones(2), stream=v), lambda v: s.memcpy(v, d), lambda v: s.memcpy(d, v),
             lambda v: s.memcpy(d, np.ones(4, F32), kind=v), lambda v: s.memcpy(d, np.ones(4, F32), stream=v),
             lambda v: d.copy_from(v), lambda v: d.numpy(stream=v), lambda v: st.wait(v), lambda v: st.record(v),
             lambda v: ev.record(v), lambda v: Event.elapsed_ms(ev, v), lambda v: Event.elapsed_ms(v, ev),
             lambda v: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, d, d, stream=v),
             lambda v: opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, v, d)]
    for i, call in enumerate(calls):
        for bad in BAD:
            try:
                call(bad)
            except (AclRuntimeError, OpError) as e:
                assert e.code and str(e), (i, bad)
            try:
                s.synchronize()
            except (AclRuntimeError, OpError):
                pass


def test_an_unvalidated_chip_config_object_is_checked_at_init(clean):
    """``model_copy(update=...)`` skips pydantic validation: acl.init / Session check the
    object they are given (malloc_align_bytes 0 used to end in ZeroDivisionError)."""
    bad = TINY.model_copy(update={"malloc_align_bytes": 0})
    assert acl.init(chip=bad) == 100000
    assert "malloc_align_bytes" in _msg() and "power of two" in _msg()
    with pytest.raises(InvalidParamError, match="malloc_align_bytes"):
        Session(bad).open()
    good = TINY.model_copy(update={"name": "custom"})
    with Session(good) as sess:
        assert sess.chip is good
