"""A blocking host call shows how long the host waited, as msprof's host track does."""
import numpy as np

import opsnn
from acl_runtime import acl
from acl_runtime import profiler
from acl_runtime.runtime import HOST_TRACK, runtime
from traces import to_chrome_trace, validate_trace


def test_synchronize_draws_the_wait(npu):
    """After a long kernel, aclrtSynchronizeStream's host time covers the device's
    completion: a 'blocked' span ends where the device's task ends."""
    a = np.ones((256, 256), np.float32)
    _, ta = npu.to_device(a)
    _, tb = npu.to_device(a)
    _, tc = npu.empty((256, 256), np.float32)
    ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(ta, tb, tc, 0)
    assert ret == 0
    assert opsnn.aclnnMatmul(0, ws, ex, 0) == 0
    assert acl.rt.synchronize_stream(0) == 0
    dev = runtime().device
    task_end = max(s.start_ns + s.dur_ns for s in dev.recorder.spans if s.cat == "task")
    blocked = [s for s in profiler.host_spans() if s.track == HOST_TRACK and s.name.startswith("blocked")]
    assert blocked, "no blocked span on the host track"
    last = blocked[-1]
    assert abs(last.start_ns + last.dur_ns - task_end) < 1e-6
    assert runtime().clock.now_ns >= task_end
    validate_trace(to_chrome_trace(profiler.trace_data()))  # still no overlapping spans on the host track


def test_session_write_trace(tmp_path):
    """Session.write_trace writes a valid trace; an unwritable path is a typed error."""
    import json

    import pytest

    from acl_runtime import InvalidParamError, Session
    from opsnn import run_op

    with Session(chip="tiny") as s:
        a = s.to_device(np.ones((8, 8), np.float32))
        c = s.empty((8, 8), np.float32)
        run_op(opsnn.aclnnMatmulGetWorkspaceSize, opsnn.aclnnMatmul, a, a, c, 0)
        p = s.write_trace(tmp_path / "t.json")
        counts = validate_trace(json.loads(open(p).read()))
        assert counts
        with pytest.raises(InvalidParamError):
            s.write_trace(tmp_path / "missing" / "t.json")
