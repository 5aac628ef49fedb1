"""The export -> calibrate round trip: a run's trace exported as an msprof op_summary
(``npu-trace export --msprof-csv``) and calibrated against the chip that made it gives
back that chip (error near zero, every parameter unchanged), with no row skipped."""
from __future__ import annotations

import pytest

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from frontend.calibrate import PARAMS, _tensor, calibrate, read_op_summary
from npu_sim import get_chip
from traces.export import write_msprof_csv
from traces.stream_load import load_trace


def _run(prep, launch):
    ws, ex, ret = prep
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    w = acl.rt.malloc(ws, acl.ACL_MEM_MALLOC_HUGE_FIRST)[0] if ws else 0
    assert launch(w, ws, ex, 0) == 0


def test_export_then_calibrate_gives_back_the_same_chip(tmp_path):
    chip = get_chip("tiny")
    if runtime().initialized:
        acl.finalize()
    acl.init(chip=chip, timing_only=True)
    acl.rt.set_device(0)
    try:   # each op on fresh (cold) tensors, as calibrate re-simulates a row
        a, b, o = (_tensor((262144,), "FLOAT") for _ in range(3))
        _run(opsnn.aclnnAddGetWorkspaceSize(a, b, 1.0, o), opsnn.aclnnAdd)
        a, b, o = (_tensor((256, 256), "FLOAT16") for _ in range(3))
        _run(opsnn.aclnnMatmulGetWorkspaceSize(a, b, o, 0), opsnn.aclnnMatmul)
        x, o = (_tensor((256, 1024), "FLOAT") for _ in range(2))
        _run(opsnn.aclnnSoftmaxGetWorkspaceSize(x, -1, o), opsnn.aclnnSoftmax)
        assert acl.rt.synchronize_stream(0) == 0
        runtime().write_trace(tmp_path / "run.json")
    finally:
        acl.finalize()
    csv_path = write_msprof_csv(load_trace(tmp_path / "run.json"), tmp_path / "op_summary_0_1.csv")
    rows = read_op_summary(csv_path)
    assert [r.out_shapes for r in rows] == [[(262144,)], [(256, 256)], [(256, 1024)]]
    fit = calibrate(chip, rows)
    assert all(r.sim_us is not None and not r.skip for r in fit.rows)
    assert fit.rms_before < 1e-3          # the CSV keeps durations to 1 ns
    for name in PARAMS:
        assert fit.values[name] == pytest.approx(getattr(chip, name), rel=5e-3), name
