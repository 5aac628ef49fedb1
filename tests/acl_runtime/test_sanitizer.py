"""The stream sanitizer: each finding reported on a planted bug and gone once the
bug is fixed (an event added, a synchronize), and silent on correct programs."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import opsnn
from acl_runtime import Session
from acl_runtime.sanitizer import SanitizerWarning

N = 1024


def _producer_consumer(s: Session, ordered: str | None):
    """Stream A writes y = relu(x); stream B reads y (z = y + y). ``ordered``: None (a
    race), "event" (B waits on an event recorded after A's write), "sync" (the host
    synchronizes A before enqueuing B)."""
    a, b = s.stream(), s.stream()
    x = s.to_device(np.linspace(-1, 1, N, dtype=np.float32))
    y = s.empty((N,), np.float32)
    z = s.empty((N,), np.float32)
    s.synchronize()
    opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, x, y, stream=a)
    if ordered == "event":
        e = s.event()
        e.record(a)
        b.wait(e)
    elif ordered == "sync":
        a.synchronize()
    opsnn.run_op(opsnn.aclnnAddGetWorkspaceSize, opsnn.aclnnAdd, y, y,
                 opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT), z, stream=b)
    a.synchronize()   # stream syncs: a device-wide one with one stream pending is a needless-sync warning
    b.synchronize()
    return y, z


def test_a_race_between_unordered_streams_is_reported():
    with Session(chip="tiny", sanitize=True) as s:
        with pytest.warns(SanitizerWarning, match="data race"):
            y, _ = _producer_consumer(s, None)
        (f,) = [f for f in s.findings if f.kind == "race"]
        assert f.first.what == "aclnnRelu" and f.second.what == "aclnnAdd"
        assert f.first.stream != f.second.stream
        assert f.first.site.startswith("test_sanitizer.py:") and f.second.site.startswith("test_sanitizer.py:")
        assert f.lo >= y.ptr and f.hi <= y.ptr + y.nbytes


@pytest.mark.parametrize("fix", ["event", "sync"])
def test_the_fixed_program_is_silent(fix):
    with Session(chip="tiny", sanitize=True) as s:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SanitizerWarning)
            _, z = _producer_consumer(s, fix)
            np.testing.assert_allclose(z.numpy(), 2 * np.maximum(np.linspace(-1, 1, N, dtype=np.float32), 0))
        assert s.findings == []


def test_a_copy_racing_a_kernel_is_reported():
    """An async upload into x on a copy stream while a kernel on another stream reads x."""
    with Session(chip="tiny", sanitize=True) as s:
        a, copy = s.stream(), s.stream()
        x = s.to_device(np.ones(N, np.float32))
        y = s.empty((N,), np.float32)
        s.synchronize()
        opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, x, y, stream=a)
        with pytest.warns(SanitizerWarning):
            s.memcpy(x, np.zeros(N, np.float32), stream=copy)
        s.synchronize()
        assert any("aclrtMemcpyAsync H2D" in (f.second.what + f.first.what) for f in s.findings)


def test_two_unordered_launches_sharing_a_workspace():
    """Multi-pass LayerNorm (a row too long for tiny's UB) keeps its statistics in the
    workspace: two streams given the same workspace with nothing ordering them."""
    d = 64 * 1024
    with Session(chip="tiny", sanitize=True) as s:
        streams = (s.stream(), s.stream())
        xs = [s.to_device(np.ones((2, d), np.float32)) for _ in range(2)]
        outs = [s.empty((2, d), np.float32) for _ in range(2)]
        s.synchronize()
        ws = None
        for x, out, st in zip(xs, outs, streams):
            size, ex, ret = opsnn.aclnnLayerNormGetWorkspaceSize(
                opsnn.as_tensor(x), opsnn.aclCreateIntArray([d]), None, None, 1e-5, opsnn.as_tensor(out), None, None)
            assert ret == 0 and size > 0
            ws = ws or s.empty((size,), np.uint8)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", SanitizerWarning)
                assert opsnn.aclnnLayerNorm(ws.ptr, size, ex, st.handle) == 0
        s.synchronize()
        kinds = {f.kind for f in s.findings}
        assert "workspace" in kinds, s.findings
        ws_f = [f for f in s.findings if f.kind == "workspace"][0]
        assert ws.ptr <= ws_f.lo < ws_f.hi <= ws.ptr + ws.nbytes
        assert "share workspace" in str(ws_f)


def test_off_by_default():
    with Session(chip="tiny") as s:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SanitizerWarning)
            _producer_consumer(s, None)
        assert s.findings == []


def test_env_variable_turns_it_on(monkeypatch):
    monkeypatch.setenv("NPU_SIM_SANITIZE", "1")
    with Session(chip="tiny") as s:
        with pytest.warns(SanitizerWarning):
            _producer_consumer(s, None)
        assert s.findings
    monkeypatch.delenv("NPU_SIM_SANITIZE")
    with Session(chip="tiny") as s:     # the next aclInit without it: off again
        _producer_consumer(s, None)
        assert s.findings == []
