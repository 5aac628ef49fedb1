"""What streams buy: ``python -m benchmarks.streams [--chip NAME] [--requests N] [--plot FILE.png]``.

Three measurements, each in one run of the simulator (timing-only: the same simulated
times as a full run, no numbers), all times simulated:

1. **Request parallelism.** N independent requests, each a batch-1 encoder FFN block
   (``x[1, S, H] @ W1[H, 4H]`` -> Gelu -> ``@ W2[4H, H]`` -> Add -> LayerNorm, H = 768,
   S = 32), spread round-robin over 1, 2, 4 and 8 streams. A small request leaves most
   AI Cores idle (its kernels' ``block_dim`` is below the core count), so requests on
   other streams fill them, until cores or HBM bandwidth saturate. The same table for
   big requests (S = 2048, whose matmuls fill every AIC) shows what is left: on the
   910B's separated AIC/AIV cores one request's Cube kernels overlap another's Vector
   kernels (Gelu, Add, LayerNorm), which two streams already give; more give nothing.
2. **Copy/compute overlap.** Each request first uploads its input (``aclrtMemcpyAsync``
   H2D over the host link). Serial: upload and compute on one stream. Overlapped: the
   upload of request i + 1 on a copy stream while request i computes, linked by
   events (``aclrtRecordEvent`` / ``aclrtStreamWaitEvent``).
3. **A two-stage pipeline.** Stage 1 (the first matmul and Gelu) on stream A, stage 2
   (the rest) on stream B, linked per request by an event; against both stages on
   one stream.

4. **The host-bound case.** Many small ops (a Relu of 64 fp16 values each), issued
   eagerly (phase 1 + phase 2 per op on the host clock) against one captured graph
   replay per stream (``acl.mdl.ri_capture_begin`` / ``ri_capture_end`` once, then
   ``ri_execute_async``: one host launch), on 1 and 4 streams. Here the host is the
   bottleneck, so the time is the host's plus the tail of the device's; no gate.
5. **The sanitizer's wall-time cost.** Light ResNet-50 as four requests on four
   streams (timing-only), with and without the stream sanitizer: wall seconds and
   their ratio (the issue asks for at most 2x), and the findings (none expected).

Throughput is requests per simulated ms; latency per request is the mean time from
its first task's start to its last task's end (device clock, from events). Every
stream first waits on a "gate" event that is recorded only after the host has
enqueued all the work, so the host's phase-1 and launch costs (serial, on the host
clock) do not limit what the device can overlap: the tables measure the device.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from rich.console import Console
from rich.table import Table

import opsnn
from acl_runtime import Session, acl, sanitizer

H = 768


def _weights(s: Session, h: int):
    w1 = s.empty((h, 4 * h), np.float16)
    w2 = s.empty((4 * h, h), np.float16)
    return w1, w2


def _stage1(x, w1, stream):
    return opsnn.gelu(opsnn.matmul(x, w1, cube_math_type=0, stream=stream), stream=stream)


def _stage2(h1, x, w2, stream, h: int):
    y = opsnn.matmul(h1, w2, cube_math_type=0, stream=stream)
    y = opsnn.add(y, x, stream=stream)
    return opsnn.layer_norm(y, [h], stream=stream)


def _gate(s: Session, streams) -> tuple:
    """An event every stream in ``streams`` waits on (bound to its next record) and the
    stream that will record it once all work is enqueued."""
    gate, opener = s.event(), s.stream()
    for st in streams:
        st.wait(gate)
    return gate, opener


def _link(s: Session, before, after) -> None:
    """``after`` waits for the work enqueued on ``before`` so far (record, then wait)."""
    e = s.event()
    e.record(before)
    after.wait(e)


def _release(s: Session, gate, opener, last) -> float:
    """Record the end on ``last``, open ``gate`` (all work is enqueued), synchronize:
    simulated us from the gate to the end."""
    end = s.event()
    end.record(last)
    gate.record(opener)
    s.synchronize()
    return end.elapsed_ms(gate, end) * 1e3


def _parallel(chip: str, n_req: int, n_streams: int, seq: int) -> tuple[float, float]:
    """(simulated total us, mean latency us) of ``n_req`` requests over ``n_streams``."""
    with Session(chip=chip, timing_only=True) as s:
        w1, w2 = _weights(s, H)
        xs = [s.empty((seq, H), np.float16) for _ in range(n_req)]
        streams = [s.stream() for _ in range(n_streams)]
        marks = []
        t0, opener = _gate(s, streams)
        for i, x in enumerate(xs):
            st = streams[i % n_streams]
            a = s.event()
            a.record(st)
            _stage2(_stage1(x, w1, st), x, w2, st, H)
            b = s.event()
            b.record(st)
            marks.append((a, b))
        for st in streams[1:]:
            _link(s, st, streams[0])
        total_us = _release(s, t0, opener, streams[0])
        lat = float(np.mean([a.elapsed_ms(a, b) * 1e3 for a, b in marks]))
        return total_us, lat


def _overlap(chip: str, n_req: int, seq: int, overlapped: bool) -> float:
    """Simulated us of ``n_req`` requests that each upload their input first."""
    host = np.zeros((seq, H), np.float16)
    with Session(chip=chip, timing_only=True) as s:
        w1, w2 = _weights(s, H)
        compute = s.stream()
        copy = s.stream() if overlapped else compute
        xs = [s.empty((seq, H), np.float16) for _ in range(n_req)]
        start, opener = _gate(s, {compute, copy})
        for x in xs:
            s.memcpy(x, host, stream=copy)
            if overlapped:
                _link(s, copy, compute)
            _stage2(_stage1(x, w1, compute), x, w2, compute, H)
        return _release(s, start, opener, compute)


def _pipeline(chip: str, n_req: int, seq: int, two_streams: bool) -> float:
    with Session(chip=chip, timing_only=True) as s:
        w1, w2 = _weights(s, H)
        sa = s.stream()
        sb = s.stream() if two_streams else sa
        xs = [s.empty((seq, H), np.float16) for _ in range(n_req)]
        start, opener = _gate(s, {sa, sb})
        for x in xs:
            h1 = _stage1(x, w1, sa)
            if two_streams:
                _link(s, sa, sb)
            _stage2(h1, x, w2, sb, H)
        return _release(s, start, opener, sb)


def _host_bound(chip: str, n_ops: int, n_streams: int, captured: bool) -> float:
    """Simulated us from the first issue to the end of ``n_ops`` small Relus spread
    over ``n_streams`` streams, eager or as one captured graph replay per stream."""
    with Session(chip=chip, timing_only=True) as s:
        streams = [s.stream() for _ in range(n_streams)]
        bufs = [(s.empty((64,), np.float16), s.empty((64,), np.float16)) for _ in streams]

        def issue(k: int) -> None:
            x, y = bufs[k]
            for _ in range(n_ops // n_streams):
                opsnn.run_op(opsnn.aclnnReluGetWorkspaceSize, opsnn.aclnnRelu, x, y, stream=streams[k])

        graphs = []
        if captured:
            for k, st in enumerate(streams):
                assert acl.mdl.ri_capture_begin(st.handle, acl.mdl.ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) == 0
                issue(k)
                ri, ret = acl.mdl.ri_capture_end(st.handle)
                assert ret == 0, acl.get_recent_err_msg()
                graphs.append(ri)
        for st in streams:
            st.synchronize()
        t0 = s.host_ns
        for k, st in enumerate(streams):
            if captured:
                assert acl.mdl.ri_execute_async(graphs[k], st.handle) == 0
            else:
                issue(k)
        for st in streams:
            st.synchronize()
        return (s.host_ns - t0) / 1e3


def enqueue_program(prog) -> None:
    """Phase 2 of every call of a prepared ``frontend.program.PreparedProgram`` on its
    stream, with no synchronize (``launch_timed`` without its events and wait)."""
    ws, n = prog.workspace, prog.workspace_size
    for i, c in enumerate(prog.calls):
        if prog.call_workspaces is not None:
            ws, n = prog.call_workspaces[i], c.workspace_size
        assert c.launch(ws, n, c.executor, prog.stream) == 0


def resnet_on_streams(n_streams: int = 4, sanitize: bool = False, chip: str = "ascend910b2") -> tuple[float, list]:
    """(wall seconds, sanitizer findings) of light ResNet-50 as ``n_streams`` requests,
    one per stream, each with its own prepared program and planned memory, all
    enqueued before the streams are synchronized (timing-only)."""
    from frontend.cli.common import load_graph, resolve_model
    from frontend.runner import ModelRunner
    graph = load_graph(resolve_model("light_resnet50"))
    t0 = time.perf_counter()
    acl.init(chip=chip, timing_only=True)
    try:
        acl.rt.set_device(0)
        sanitizer.enable(sanitize)
        runners = [ModelRunner(graph, mode="graph", memory="planned") for _ in range(n_streams)]
        for r in runners:
            r.prepare()
        for r in runners:
            enqueue_program(r.program)
        for r in runners:
            assert acl.rt.synchronize_stream(r.program.stream) == 0
        return time.perf_counter() - t0, sanitizer.findings()
    finally:
        acl.finalize()


def _versus(title: str, ratio_col: str, base: tuple[str, float], other: tuple[str, float]) -> Table:
    """A two-row table: each schedule's simulated total (us) and its speed-up over ``base``."""
    t = Table(title=title)
    for c in ("schedule", "total us", ratio_col):
        t.add_column(c, justify="right")
    for name, us in (base, other):
        t.add_row(name, f"{us:.1f}", f"{base[1] / us:.2f}x")
    return t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--chip", default="ascend910b2")
    ap.add_argument("--requests", type=int, default=16, help="requests per measurement (default 16)")
    ap.add_argument("--small-ops", type=int, default=256, help="ops in the host-bound case (default 256)")
    ap.add_argument("--plot", metavar="FILE.png", help="save throughput vs streams (needs matplotlib)")
    a = ap.parse_args(argv)
    con = Console()
    rows = {}
    for seq, label, n in ((32, "small (S=32)", a.requests), (2048, "big (S=2048)", max(4, a.requests // 4))):
        t = Table(title=f"{n} independent FFN requests, {label}, {a.chip}: more streams")
        for c in ("streams", "total us", "requests / ms", "mean latency us", "speed-up vs 1 stream"):
            t.add_column(c, justify="right")
        base = None
        rows[label] = []
        for ns in (1, 2, 4, 8):
            total, lat = _parallel(a.chip, n, ns, seq)
            base = base or total
            rows[label].append((ns, n / (total / 1e3)))
            t.add_row(str(ns), f"{total:.1f}", f"{n / (total / 1e3):.2f}", f"{lat:.1f}", f"{base / total:.2f}x")
        con.print(t)
    n = a.requests
    con.print(_versus(f"{n} requests, each uploading its input first (S=32)", "vs serial",
                      ("upload and compute on one stream", _overlap(a.chip, n, 32, False)),
                      ("upload on a copy stream, events", _overlap(a.chip, n, 32, True))))
    con.print(_versus(f"{n} requests as a two-stage pipeline (S=32)", "vs one stream",
                      ("both stages on one stream", _pipeline(a.chip, n, 32, False)),
                      ("stage 1 on A, stage 2 on B, an event per request", _pipeline(a.chip, n, 32, True))))
    t = Table(title=f"host-bound: {a.small_ops} small ops (Relu of 64 fp16), eager vs captured graph replay")
    for c in ("streams", "eager us", "graph replay us", "replay speed-up"):
        t.add_column(c, justify="right")
    for ns in (1, 4):
        eager, graph = _host_bound(a.chip, a.small_ops, ns, False), _host_bound(a.chip, a.small_ops, ns, True)
        t.add_row(str(ns), f"{eager:.1f}", f"{graph:.1f}", f"{eager / graph:.2f}x")
    con.print(t)
    resnet_on_streams(1, False)   # warm-up: first-use costs (imports, compiled programs) in neither row
    plain, _ = resnet_on_streams(4, False)
    san, found = resnet_on_streams(4, True)
    t = Table(title="stream sanitizer cost: light ResNet-50, 4 requests on 4 streams (timing-only, wall time)")
    for c in ("run", "wall s", "vs plain", "findings"):
        t.add_column(c, justify="right")
    t.add_row("plain", f"{plain:.2f}", "1.00x", "-")
    t.add_row("sanitized", f"{san:.2f}", f"{san / plain:.2f}x", str(len(found)) if found else "none")
    con.print(t)
    if a.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        for label, pts in rows.items():
            ax.plot([p[0] for p in pts], [p[1] / pts[0][1] for p in pts], marker="o", label=label)
        ax.set_xlabel("streams")
        ax.set_ylabel("throughput vs 1 stream")
        ax.set_xscale("log", base=2)
        ax.legend()
        ax.set_title(f"request parallelism on {a.chip}")
        fig.tight_layout()
        fig.savefig(a.plot, dpi=120)
        con.print(f"wrote {a.plot}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
