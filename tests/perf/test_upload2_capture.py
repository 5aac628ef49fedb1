"""``PreparedProgram.capture`` runs with the cyclic garbage collector paused
(``npu_sim.host_gc``) and leaves it enabled again, also when a launch fails; the
captured program replays to the numbers the eager launches of the same program give
(the reference) and to a float64 numpy reference."""
from __future__ import annotations

import gc

import numpy as np
import pytest

from frontend.errors import DeviceError
from frontend.program import PreparedProgram, download, prepare_call


def _program(npu, x):
    px, tx = npu.to_device(x)
    py, ty = npu.empty(x.shape, x.dtype)
    prog = PreparedProgram("t")
    prog.add(prepare_call("add", "Add", "aclnnAdd", tx, tx, 1.0, ty),
             prepare_call("mul", "Mul", "aclnnMul", ty, tx, ty))
    prog.allocate()
    return prog, py


def test_capture_pauses_gc_and_replays_like_eager(npu, rng):
    x = rng.standard_normal((4, 32)).astype(np.float32)
    eager, py_e = _program(npu, x)
    eager.launch_timed()
    want = download(py_e, x.shape, x.dtype)

    prog, py = _program(npu, x)
    seen = []
    real = prog._launch_all

    def spy():
        seen.append(gc.isenabled())
        real()
    prog._launch_all = spy
    assert gc.isenabled()
    assert prog.capture() == 2
    assert seen == [False] and gc.isenabled()
    assert prog.launch_timed() > 0
    np.testing.assert_array_equal(download(py, x.shape, x.dtype), want)
    np.testing.assert_allclose(want, (x.astype(np.float64) * 2) * x, rtol=1e-6)   # float64 reference


def test_capture_failure_reenables_gc(npu, rng):
    x = rng.standard_normal((4, 32)).astype(np.float32)
    prog, _ = _program(npu, x)

    def boom():
        assert not gc.isenabled()
        raise DeviceError(1, "boom")
    prog._launch_all = boom
    with pytest.raises(DeviceError):
        prog.capture()
    assert gc.isenabled()
    captured, reason = prog.try_capture()
    assert captured == 0 and "boom" in reason and prog.model_ri == 0 and gc.isenabled()
