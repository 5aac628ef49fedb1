"""The run summary (frontend/summary.py) names each op's bound: a large fp16 matmul is
compute-bound, a large add memory-bound, a small add latency-bound, on ascend910b2 in
timing-only mode."""
from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from rich.console import Console

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from frontend.summary import op_table, print_summary
from opsnn.base.dtypes import aclDataType


@pytest.fixture
def timing_910():
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    assert acl.init(chip="ascend910b2", timing_only=True) == 0
    assert acl.rt.set_device(0) == 0
    yield rt
    acl.finalize()


def _tensor(shape, dt, itemsize):
    ptr, ret = acl.rt.malloc(int(np.prod(shape)) * itemsize, 0)
    assert ret == 0
    return opsnn.aclCreateTensor(shape, dt, None, 0, 2, shape, ptr)


def _add(n, name_suffix=""):
    a, b, c = (_tensor((n,), aclDataType.ACL_FLOAT, 4) for _ in range(3))
    ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(a, b, 1.0, c)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnAdd(0, ws, ex, 0) == 0


def _matmul(n):
    a, b, c = (_tensor((n, n), aclDataType.ACL_FLOAT16, 2) for _ in range(3))
    ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(a, b, c, 0)
    assert ret == 0, opsnn.aclGetRecentErrMsg()
    assert opsnn.aclnnMatmul(0, ws, ex, 0) == 0


def test_summary_names_the_bounds(timing_910):
    _matmul(4096)
    _add(64 << 20)      # 256 MiB per operand
    assert acl.rt.synchronize_stream(0) == 0
    big = list(timing_910.device.kernel_records)
    _add(256)
    assert acl.rt.synchronize_stream(0) == 0
    recs = timing_910.device.kernel_records
    assert [r["bound"] for r in recs] == ["compute", "memory", "latency"]
    rows, total = op_table(big)
    by = {r["name"]: r for r in rows}
    assert by["Matmul"]["bound"] == "compute" and by["Matmul"]["mac_ratio"] > 0.85
    assert by["Add"]["bound"] == "memory"
    console = Console(record=True, width=200)
    res = SimpleNamespace(device_ns=sum(r["dur_ns"] for r in recs), calls=len(recs), wall_s=0.0)
    print_summary(console, model="test", chip=timing_910.device.chip, result=res, records=recs, peak_bytes=0,
                  weight_bytes=0, trace_path=None, check=None, prepare_s=0.0, ref_s=None)
    text = console.export_text()
    lines = {ln.split()[1]: ln for ln in text.splitlines() if ln.startswith("│ ")}
    assert lines["Matmul"].rstrip(" │").endswith("compute")
    assert "memory (" in lines["Add"]          # the big call's class, with its share of the op's time
    assert all(h in text for h in ("mac", "vec", "scalar", "mte1", "mte2", "mte3", "fixp"))


def test_summary_says_small_ops_are_latency_bound(timing_910):
    for n in (64, 1024, 16384):
        _add(n)
    _matmul(64)
    assert acl.rt.synchronize_stream(0) == 0
    recs = timing_910.device.kernel_records
    console = Console(record=True, width=200)
    res = SimpleNamespace(device_ns=sum(r["dur_ns"] for r in recs), calls=len(recs), wall_s=0.0)
    print_summary(console, model="test", chip=timing_910.device.chip, result=res, records=recs, peak_bytes=0,
                  weight_bytes=0, trace_path=None, check=None, prepare_s=0.0, ref_s=None)
    lines = {ln.split()[1]: ln for ln in console.export_text().splitlines() if ln.startswith("│ ")}
    for op in ("Add", "Matmul"):
        assert lines[op].rstrip(" │").endswith("latency"), lines[op]


def test_run_summary_and_trace_summary_print_the_same_numbers(tmp_path):
    """``npu-sim run`` (frontend/summary.py, from kernel records) and ``npu-trace
    summary`` (traces/analysis.py, from the written trace) give each op the same
    GB/s, TFLOP/s and pipe ratios, and the same engine busy shares."""
    from frontend.summary import engine_busy
    from traces import analysis

    rt = runtime()
    if rt.initialized:
        acl.finalize()
    assert acl.init(chip="tiny") == 0 and acl.rt.set_device(0) == 0
    try:
        _matmul(96)
        _add(5000)
        _add(300)
        x, out = _tensor((8, 300), aclDataType.ACL_FLOAT, 4), _tensor((8, 300), aclDataType.ACL_FLOAT, 4)
        ws, ex, ret = opsnn.aclnnSoftmaxGetWorkspaceSize(x, -1, out)
        assert ret == 0, opsnn.aclGetRecentErrMsg()
        assert opsnn.aclnnSoftmax(0, ws, ex, 0) == 0
        assert acl.rt.synchronize_stream(0) == 0
        records = rt.kernel_records()
        chip = rt.chip
        path = tmp_path / "run.json"
        rt.write_trace(path, metadata={"chip": chip.name})
    finally:
        acl.finalize()
    run_rows, _ = op_table(records, top=100)
    trace_rows = {r["name"]: r for r in analysis.op_summary(path) if r["task_type"] != "MEMCPY"}
    assert {r["name"] for r in run_rows} == set(trace_rows) >= {"Matmul", "Add", "Softmax"}
    for r in run_rows:
        t = trace_rows[r["name"]]
        assert r["count"] == t["count"]
        assert r["gb_per_s"] > 0 and r["gb_per_s"] == pytest.approx(t["gb_per_s"], rel=1e-9)
        assert r["tflops"] == pytest.approx(t["tflops"], rel=1e-9, abs=1e-15)
        for k in ("mac_ratio", "vec_ratio", "scalar_ratio", "mte1_ratio", "mte2_ratio", "mte3_ratio", "fixpipe_ratio"):
            assert r[k] == pytest.approx(t[k], rel=1e-9, abs=1e-15)
        assert r["bound"] == t["bound"]
    shares, window = engine_busy(records, chip)
    (row,) = analysis.engine_busy(path)
    assert row["cores_from"] == "chip" and row["end_ns"] - row["start_ns"] == pytest.approx(window, rel=1e-9)
    assert shares == pytest.approx(row["shares"], rel=1e-9, abs=1e-15)
    assert shares["MTE2"] > 0 and shares["CUBE"] > 0 and shares["VECTOR"] > 0
