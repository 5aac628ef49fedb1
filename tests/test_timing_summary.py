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
