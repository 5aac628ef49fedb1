"""Phase-2 wall time as the trace grows: ``python -m benchmarks.trace_gc [--batches N] [--calls N]``.

Question: does keeping every trace span slow the host API down over a long run?
Python's cyclic garbage collector rescans every tracked object in each full
collection, and a run that keeps one ``Span`` object (plus its args dict) per host
call and per device task made those collections longer and longer. Now
``npu_sim.trace.TraceRecorder`` records spans flat (no object per span) and packs
them into tuples the collector stops tracking; the runtime packs at each
synchronization.

Measured on the development machine (3 x 2000 calls, phase-2 us/call by batch):
before 1.55, 2.6-2.9, 3.1-3.8 (later/first 1.8-2.2x; tracked objects +8000 a batch);
after 1.35-1.40, 1.37-1.47, 1.36-1.46 (1.04x; +2000 a batch). What still grows is
``Device.kernel_records`` (one dict per kernel, kept for ``traces``): full
collections still cost 30-50 ms after a few batches and make a batch spike when
one lands inside the phase-2 loop.

Method: on ``ascend910b2``, one repeatable ``aclnnAdd`` executor (float16, 1x768);
per batch, ``--calls`` phase-2 calls (timed: wall time per call) then one
``aclrtSynchronizeStream`` (timed separately). Nothing is cleared between batches,
so the trace grows as in a long run. A ``gc.callbacks`` hook adds up the time spent
in garbage collection during the phase-2 loop. Two configurations:

* ``trace on``: the default (every span kept);
* ``trace off``: ``acl_runtime.profiler.set_enabled(False)`` (no host or device spans kept): the floor.

Printed: per batch, phase-2 us/call, GC ms inside the phase-2 loop, sync ms, GC ms
inside the sync, full (generation 2) collections, and the objects the collector
tracks after the batch; then the later batches' mean and median phase-2 time over
the first batch's, and the GC time of the whole run. Wall times vary between machines
and runs; full collections land in whichever batch reaches the collector's
threshold, so single batches spike.
"""
from __future__ import annotations

import argparse
import gc
import statistics
import time

import numpy as np
from rich.console import Console
from rich.table import Table

import opsnn
from acl_runtime import acl
from acl_runtime.runtime import runtime
from opsnn.base.dtypes import from_numpy_dtype

CHIP = "ascend910b2"


def _tensor(arr: np.ndarray):
    ptr, ret = acl.rt.malloc(arr.nbytes, 0)
    assert ret == 0, acl.get_recent_err_msg()
    assert acl.rt.memcpy(ptr, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, acl.ACL_MEMCPY_HOST_TO_DEVICE) == 0
    return opsnn.aclCreateTensor(arr.shape, from_numpy_dtype(arr.dtype), None, 0, 2, arr.shape, ptr)


def _span_count(rec) -> int:
    return len(rec) if hasattr(type(rec), "__len__") else len(rec._items)   # (older recorders: no __len__)


def run(batches: int, calls: int, trace: bool) -> list[dict]:
    """One configuration: returns per-batch measurements."""
    if runtime().initialized:
        acl.finalize()
    gc.collect()
    assert acl.init(chip=CHIP) == 0 and acl.rt.set_device(0) == 0
    runtime().profiler.set_enabled(trace)   # host and device tracks
    x = np.ones((1, 768), np.float16)
    a, b, out = _tensor(x), _tensor(x), _tensor(np.zeros_like(x))
    alpha = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT16)
    ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(a, b, alpha, out)
    assert ret == 0 and ws == 0 and opsnn.aclSetAclOpExecutorRepeatable(ex) == 0
    add = opsnn.aclnnAdd
    acc = {"ms": 0.0, "full": 0, "t": 0.0}

    def hook(phase, info):
        if phase == "start":
            acc["t"] = time.perf_counter()
        else:
            acc["ms"] += (time.perf_counter() - acc["t"]) * 1e3
            acc["full"] += info["generation"] == 2

    def take() -> tuple[float, int]:
        out = (acc["ms"], acc["full"])
        acc["ms"], acc["full"] = 0.0, 0
        return out
    gc.callbacks.append(hook)
    rows = []
    try:
        for _ in range(batches):
            take()
            t0 = time.perf_counter()
            for _ in range(calls):
                add(0, 0, ex, 0)
            t1 = time.perf_counter()
            gc_p2, full_p2 = take()
            assert acl.rt.synchronize_stream(0) == 0, acl.get_recent_err_msg()
            t2 = time.perf_counter()
            gc_sync, full_sync = take()
            rows.append(dict(p2_us=(t1 - t0) / calls * 1e6, gc_p2_ms=gc_p2, sync_ms=(t2 - t1) * 1e3,
                             gc_sync_ms=gc_sync, full=full_p2 + full_sync, tracked=len(gc.get_objects()),
                             spans=_span_count(runtime().device.recorder) + _span_count(runtime().profiler.host)))
    finally:
        gc.callbacks.remove(hook)
    acl.finalize()
    return rows


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--batches", type=int, default=3)
    ap.add_argument("--calls", type=int, default=2000)
    args = ap.parse_args(argv)
    console = Console()
    for trace in (True, False):
        rows = run(args.batches, args.calls, trace)
        t = Table(title=f"aclnnAdd phase 2 on {CHIP}, trace {'on' if trace else 'off'}, "
                        f"{args.batches} x {args.calls} calls")
        for col in ("batch", "p2 us/call", "GC ms in p2", "sync ms", "GC ms in sync", "full GCs", "GC-tracked objects",
                    "spans"):
            t.add_column(col, justify="right")
        for i, r in enumerate(rows):
            t.add_row(str(i), f"{r['p2_us']:.2f}", f"{r['gc_p2_ms']:.1f}", f"{r['sync_ms']:.0f}",
                      f"{r['gc_sync_ms']:.1f}", str(r["full"]), f"{r['tracked']:,}", f"{r['spans']:,}")
        console.print(t)
        later = [r["p2_us"] for r in rows[1:]] or [rows[0]["p2_us"]]
        first = rows[0]["p2_us"]
        console.print(f"later batches / first batch, phase 2 per call: mean {statistics.mean(later) / first:.2f}x, "
                      f"median {statistics.median(later) / first:.2f}x; GC time over the run "
                      f"{sum(r['gc_p2_ms'] + r['gc_sync_ms'] for r in rows):.0f} ms")


if __name__ == "__main__":
    main()
