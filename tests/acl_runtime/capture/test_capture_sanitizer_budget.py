"""Captured-graph replays under the stream sanitizer (the vllm-ascend "event recorded
for the next step before the previous graph replay finished" bug, planted and fixed),
and aclmdlRICaptureBegin's 207008 when the stream budget is full."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import opsnn
from acl_runtime import Session, acl
from acl_runtime import constants as C
from acl_runtime.runtime import runtime
from acl_runtime.sanitizer import SanitizerWarning

N = 1024


def _steps(s: Session, fixed: bool, steps: int = 2):
    """A decode loop: stream a replays a captured Relu writing y; stream b waits on event
    e and copies y out. Planted: e is recorded on a for the next step *before* the
    replay, so b's wait does not follow the replay's write. Fixed: recorded after it.
    Both: a waits on event d recorded after b's copy before the next replay (else that
    replay's write races the copy's read, which the sanitizer also reports)."""
    a, b = s.stream(), s.stream()
    x = s.to_device(np.ones(N, np.float32))
    y, z = s.empty((N,), np.float32), s.empty((N,), np.float32)
    with s.capture(a) as g:
        opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, x, y, stream=a)
    e, d = s.event(), s.event()
    for _ in range(steps):
        if not fixed:
            e.record(a)
        g.replay(stream=a)
        if fixed:
            e.record(a)
        b.wait(e)
        s.memcpy(z, y, stream=b)
        d.record(b)
        a.wait(d)
    s.synchronize()
    g.destroy()
    return y


def test_event_recorded_before_the_replay_is_reported():
    with Session(chip="tiny", sanitize=True) as s:
        with pytest.warns(SanitizerWarning, match="data race"):
            y = _steps(s, fixed=False)
        races = [f for f in s.findings if f.kind == "race"]
        assert races, s.findings
        f = races[0]
        names = f"{f.first} | {f.second}"
        assert "replay of modelRI" in names and "Relu" in names and "aclrtMemcpyAsync D2D" in names
        assert f.lo < y.ptr + y.nbytes and y.ptr < f.hi


def test_event_recorded_after_the_replay_is_silent():
    with Session(chip="tiny", sanitize=True) as s:
        with warnings.catch_warnings():
            warnings.simplefilter("error", SanitizerWarning)
            _steps(s, fixed=True, steps=3)
        assert s.findings == []


def test_capture_begin_past_the_stream_budget_is_207008(clean):
    acl.init(chip="tiny")
    try:
        acl.rt.set_device(0)
        made = []
        while True:
            st, ret = acl.rt.create_stream()
            if ret:
                break
            made.append(st)
        mode = acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL
        assert acl.mdl.ri_capture_begin(made[0], mode) == C.ACL_ERROR_RT_NO_STREAM_RESOURCE == 207008
        assert "aclmdlRICaptureBegin" in acl.get_recent_err_msg()
        assert acl.mdl.ri_capture_get_info(made[0])[0] == acl.mdl.ACL_MODEL_RI_CAPTURE_STATUS_NONE
        assert acl.rt.destroy_stream(made.pop()) == 0
        assert acl.mdl.ri_capture_begin(made[0], mode) == 0      # room for the graph's stream
        ri, ret = acl.mdl.ri_capture_end(made[0])
        assert ret == 0 and runtime().streams.captured_streams() == 1
        assert acl.mdl.ri_capture_begin(made[1], mode) == 207008    # the graph still holds it
        assert "captured graphs hold 1" in acl.get_recent_err_msg()
        assert acl.mdl.ri_destroy(ri) == 0
        assert acl.mdl.ri_capture_begin(made[1], mode) == 0
        assert acl.mdl.ri_capture_end(made[1])[1] == 0
    finally:
        acl.finalize()
