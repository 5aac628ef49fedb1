"""A planned program captured once (input copy from page-locked memory, every kernel,
output copy back) and replayed with new inputs: correct outputs on every replay, one
host launch per replay."""
from __future__ import annotations

import numpy as np
import pytest

from acl_runtime import acl
from acl_runtime.host_clock import HOST_COST_NS
from acl_runtime.runtime import runtime
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner

from .test_memory import _expected, _model, clean_acl  # noqa: F401  (fixture)


def test_replay_with_new_inputs(tmp_path, clean_acl):  # noqa: F811
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        r = ModelRunner(load_onnx(_model(tmp_path)), memory="planned")
        r.prepare()
        prog, n = r.program, 4 * 256 * 4
        hin, hout = acl.rt.malloc_host(n)[0], acl.rt.malloc_host(n)[0]
        vin = runtime().host_view(hin, n, writable=True).view(np.float32).reshape(4, 256)
        vout = runtime().host_view(hout, n).view(np.float32).reshape(4, 256)
        s = prog.stream
        assert acl.mdl.ri_capture_begin(s, acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
        assert acl.rt.memcpy_async(r.values["x"].ptr, n, hin, n, acl.ACL_MEMCPY_HOST_TO_DEVICE, s) == 0
        for i, c in enumerate(prog.calls):
            assert c.launch(prog.call_workspaces[i], c.workspace_size, c.executor, s) == 0
        assert acl.rt.memcpy_async(hout, n, r.values["y"].ptr, n, acl.ACL_MEMCPY_DEVICE_TO_HOST, s) == 0
        ri, ret = acl.mdl.ri_capture_end(s)
        assert ret == 0, acl.get_recent_err_msg()
        clock = runtime().context.clock
        rng = np.random.default_rng(3)
        for _ in range(20):
            x = rng.standard_normal((4, 256)).astype(np.float32)
            vin[...] = x
            t0 = clock.now_ns
            assert acl.mdl.ri_execute_async(ri, s) == 0
            assert clock.now_ns - t0 == pytest.approx(HOST_COST_NS["aclnn_launch"], abs=1e-6)   # float clock
            assert acl.rt.synchronize_stream(s) == 0
            np.testing.assert_allclose(vout, _expected(x), rtol=1e-5)
        assert acl.mdl.ri_destroy(ri) == 0
    finally:
        acl.finalize()
