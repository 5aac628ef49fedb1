"""The two-phase payoff, measured: ``python -m benchmarks.two_phase [--quick] [--trace DIR]``.

Part 1 -- real Python wall time per call (median over batches) on ``ascend910b2``,
float16, for LayerNorm 1x768, Add 1x768, Matmul 1x768x768 and Softmax 1x128x128:

* ``p1+p2, cache off``: phase 1 (validate, infer shape, tile, build) + phase 2 every call;
* ``hit+p2``: the same loop with the executor cache on (every phase 1 is a hit);
* ``p2 repeat``: phase 2 alone on a repeatable executor (prepared once).

Targets (issue 4): ``p2 repeat`` under 20 us per call and at most a tenth of ``p1+p2``.
Phase 2 queues the kernel; the simulator receives it at the next synchronize (see
``acl_runtime.runtime.Runtime``), so simulating the device is not part of any
column: it is timed separately (``sim/kernel``) for completeness. Between batches
the benchmark synchronizes, clears the trace recorder and runs ``gc.collect()``,
all untimed, so the batches do not pay for the trace of earlier ones.

Part 2 -- simulated latency of one BERT-base encoder layer (hidden 768, 12 heads,
FFN 3072, float16) at batch 1, sequence 32, on ``ascend910b2``: 16 ops (Addmm for
the Q/K/V, output and FFN projections, BatchMatMul + Muls + Softmax + BatchMatMul
for attention, Permute, Add + LayerNorm twice, Gelu). Three ways of calling them:
re-preparing every op every call with the executor cache off, the same with the
cache on, and executors prepared once (repeatable, phase 2 only). Reported:
simulated layer latency (start event to end event), host time per layer on the
simulated host clock, the device's busy and idle time on the stream, the part of
the idle time that is host-bound (``traces.critical_path``: the device waited for
the host to launch the next task), and the layer output's error against float64.
Host costs come from ``acl_runtime.host_clock`` (assumptions, documented there).

(Over 300 lines on purpose: its three parts (host wall time, simulated host cost, the trace of both phases) share one set of op builders.)
"""
from __future__ import annotations

import argparse
import gc
import math
import statistics
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

import opsnn
import traces
from acl_runtime import acl
from acl_runtime.runtime import runtime
from opsnn.base.dtypes import from_numpy_dtype

CHIP = "ascend910b2"
DT = np.float16
P2_TARGET_US = 20.0
RATIO_TARGET = 0.10
#: float16 layer output vs float64: max |error| / max |reference| above this is flagged
ERR_TOL = 2e-2


# ------------------------------------------------------------------------------ device helpers
class Dev:
    """Device tensors through the pyACL-style binding (every call checked)."""

    def __init__(self) -> None:
        self.rng = np.random.default_rng(0)

    @staticmethod
    def _ok(ret, what):
        if ret != 0:
            raise RuntimeError(f"{what} failed ({ret}): {acl.get_recent_err_msg() or opsnn.aclGetRecentErrMsg()}")

    def malloc(self, nbytes: int) -> int:
        ptr, ret = acl.rt.malloc(max(int(nbytes), 32), 0)
        self._ok(ret, "aclrtMalloc")
        return ptr

    def put(self, arr: np.ndarray):
        """(ptr, aclTensor) holding ``arr`` (contiguous, ND)."""
        arr = np.ascontiguousarray(arr)
        ptr = self.malloc(arr.nbytes)
        self._ok(acl.rt.memcpy(ptr, arr.nbytes, acl.util.numpy_to_ptr(arr), arr.nbytes, 1), "aclrtMemcpy")
        return ptr, self.tensor(ptr, arr.shape, arr.dtype)

    def zeros(self, shape, dtype=DT):
        return self.put(np.zeros(shape, dtype))

    def rand(self, shape, scale=1.0, dtype=DT):
        return self.put((self.rng.standard_normal(shape) * scale).astype(dtype))

    @staticmethod
    def tensor(ptr, shape, dtype=DT, strides=None, storage=None):
        t = opsnn.aclCreateTensor(shape, from_numpy_dtype(np.dtype(dtype)), strides, 0, 2, storage or shape, ptr)
        if t is None:
            raise RuntimeError(opsnn.aclGetRecentErrMsg())
        return t

    def get(self, ptr, shape, dtype=DT) -> np.ndarray:
        out = np.empty(shape, dtype)
        self._ok(acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, 2), "aclrtMemcpy")
        return out


def open_device() -> Dev:
    if runtime().initialized:
        acl.finalize()
    Dev._ok(acl.init(chip=CHIP), "aclInit")
    Dev._ok(acl.rt.set_device(0), "aclrtSetDevice")
    return Dev()


def settle() -> None:
    """Untimed, between batches: run queued work, drop its trace, collect garbage."""
    Dev._ok(acl.rt.synchronize_device(), "aclrtSynchronizeDevice")
    runtime().profiler.clear()   # host and device tracks
    gc.collect()


# ------------------------------------------------------------------------------ part 1
def small_ops(dev: Dev) -> dict:
    """name -> (phase 1 thunk, phase 2 fn)."""
    x768 = dev.rand((1, 768))[1]
    y768 = dev.rand((1, 768))[1]
    out768 = dev.zeros((1, 768))[1]
    gamma, beta = dev.rand((768,))[1], dev.rand((768,))[1]
    norm = opsnn.aclCreateIntArray([768])
    w = dev.rand((768, 768), 0.03)[1]
    sm_in, sm_out = dev.rand((1, 128, 128))[1], dev.zeros((1, 128, 128))[1]
    return {
        "LayerNorm 1x768": (lambda: opsnn.aclnnLayerNormGetWorkspaceSize(x768, norm, gamma, beta, 1e-5, out768),
                            opsnn.aclnnLayerNorm),
        "Add 1x768": (lambda: opsnn.aclnnAddGetWorkspaceSize(x768, y768, 1.0, out768), opsnn.aclnnAdd),
        "Matmul 1x768x768": (lambda: opsnn.aclnnMatmulGetWorkspaceSize(x768, w, out768, 0), opsnn.aclnnMatmul),
        "Softmax 1x128x128": (lambda: opsnn.aclnnSoftmaxGetWorkspaceSize(sm_in, -1, sm_out), opsnn.aclnnSoftmax),
    }


def _median_us(run_batch, calls: int, reps: int) -> float:
    samples = []
    for _ in range(reps):
        settle()
        samples.append(run_batch(calls) / calls * 1e6)
    settle()
    return statistics.median(samples)


def measure_op(dev: Dev, p1, p2, calls: int, reps: int) -> dict:
    ws, ex, ret = p1()
    Dev._ok(ret, "phase 1")
    wptr = dev.malloc(ws) if ws else 0
    perf = time.perf_counter

    def both(n):
        t0 = perf()
        for _ in range(n):
            w, e, r = p1()
            p2(wptr, w, e, 0)
        return perf() - t0

    def only_p1(n):
        t0 = perf()
        for _ in range(n):
            p1()
        return perf() - t0

    def only_p2(n):
        t0 = perf()
        for _ in range(n):
            p2(wptr, ws, ex, 0)
        return perf() - t0

    out = {}
    opsnn.set_executor_cache(enabled=False)
    out["p1p2_off"] = _median_us(both, calls, reps)
    out["p1_off"] = _median_us(only_p1, calls, reps)
    opsnn.set_executor_cache(enabled=True)
    p1()  # fill the cache
    out["p1p2_hit"] = _median_us(both, calls, reps)
    out["p1_hit"] = _median_us(only_p1, calls, reps)
    ws, ex, ret = p1()
    Dev._ok(opsnn.aclSetAclOpExecutorRepeatable(ex), "aclSetAclOpExecutorRepeatable")
    out["p2"] = _median_us(only_p2, calls, reps)
    # simulation cost per kernel (not part of any host column)
    settle()
    for _ in range(calls):
        p2(wptr, ws, ex, 0)
    t0 = perf()
    Dev._ok(acl.rt.synchronize_device(), "aclrtSynchronizeDevice")
    out["sim"] = (perf() - t0) / calls * 1e6
    settle()
    opsnn.aclDestroyAclOpExecutor(ex)
    return out


def part1(console: Console, calls: int, reps: int) -> list[dict]:
    dev = open_device()
    rows = []
    for name, (p1, p2) in small_ops(dev).items():
        r = measure_op(dev, p1, p2, calls, reps)
        r["name"] = name
        rows.append(r)
    t = Table(title=f"Part 1 - real wall time per call, {CHIP}, float16, median of {reps} batches x {calls} calls (us)")
    for col, just in (("op", "left"), ("p1+p2\ncache off", "right"), ("hit+p2\ncache on", "right"),
                      ("p2 repeat", "right"), ("p1 alone\noff / hit", "right"), ("p2 / (p1+p2)", "right"),
                      ("vs 0.10\ntarget", "right"), ("vs 20 us\ntarget", "right"), ("sim/kernel", "right")):
        t.add_column(col, justify=just)
    for r in rows:
        ratio = r["p2"] / r["p1p2_off"]
        t.add_row(r["name"], f"{r['p1p2_off']:.1f}", f"{r['p1p2_hit']:.1f}", f"{r['p2']:.2f}",
                  f"{r['p1_off']:.1f} / {r['p1_hit']:.1f}", f"{ratio:.3f}",
                  _verdict(RATIO_TARGET / ratio), _verdict(P2_TARGET_US / r["p2"]), f"{r['sim']:.0f}")
    console.print(t)
    console.print("  p1+p2 cache off: phase 1 builds the executor every call; hit+p2: phase 1 is an executor-cache "
                  "hit; p2 repeat: phase 2 only, repeatable executor. 'vs target': how many times under (x) or "
                  "over (!) the target. sim/kernel: wall time the simulator spends per kernel at synchronize.")
    return rows


def _verdict(headroom: float) -> str:
    return f"{headroom:.1f}x under" if headroom >= 1 else f"[red]{1 / headroom:.1f}x OVER[/]"


# ------------------------------------------------------------------------------ part 2
class BertLayer:
    """One BERT-base encoder layer, batch 1, seq ``s``, float16, on the device."""

    H, HEADS, FFN = 768, 12, 3072

    def __init__(self, dev: Dev, s: int = 32) -> None:
        H, F, nh = self.H, self.FFN, self.HEADS
        dh = H // nh
        self.s = s
        g = dev.rng
        self.np = {}

        def param(name, shape, scale):
            arr = (g.standard_normal(shape) * scale).astype(DT)
            self.np[name] = arr
            return dev.put(arr)[1]

        self.x_np = g.standard_normal((s, H)).astype(DT)
        self.px, self.x = dev.put(self.x_np)
        w = {n: param(n, (H, H), 0.03) for n in ("wq", "wk", "wv", "wo")}
        b = {n: param(n, (H,), 0.02) for n in ("bq", "bk", "bv", "bo")}
        w1, b1 = param("w1", (H, F), 0.03), param("b1", (F,), 0.02)
        w2, b2 = param("w2", (F, H), 0.02), param("b2", (H,), 0.02)
        g1, be1 = param("g1", (H,), 0.1), param("be1", (H,), 0.1)
        g2, be2 = param("g2", (H,), 0.1), param("be2", (H,), 0.1)
        self.np["g1"] += 1
        self.np["g2"] += 1
        dev._ok(acl.rt.memcpy(g1.tensor_data, H * 2, acl.util.numpy_to_ptr(self.np["g1"]), H * 2, 1), "memcpy")
        dev._ok(acl.rt.memcpy(g2.tensor_data, H * 2, acl.util.numpy_to_ptr(self.np["g2"]), H * 2, 1), "memcpy")
        pq, q = dev.zeros((s, H))
        pk, k = dev.zeros((s, H))
        pv, v = dev.zeros((s, H))
        # heads as strided views of [s, H]: [nh, s, dh] strides (dh, H, 1); K^T [nh, dh, s] strides (dh, 1, H)
        qh = dev.tensor(pq, (nh, s, dh), strides=(dh, H, 1), storage=(s, H))
        kt = dev.tensor(pk, (nh, dh, s), strides=(dh, 1, H), storage=(s, H))
        vh = dev.tensor(pv, (nh, s, dh), strides=(dh, H, 1), storage=(s, H))
        scores = dev.zeros((nh, s, s))[1]
        scaled = dev.zeros((nh, s, s))[1]
        probs = dev.zeros((nh, s, s))[1]
        ctx = dev.zeros((nh, s, dh))[1]
        pctx2, _ = dev.zeros((s, nh, dh))
        ctx2 = dev.tensor(pctx2, (s, nh, dh))
        ctx2d = dev.tensor(pctx2, (s, H))
        attn = dev.zeros((s, H))[1]
        res1 = dev.zeros((s, H))[1]
        ln1 = dev.zeros((s, H))[1]
        hmid = dev.zeros((s, F))[1]
        hg = dev.zeros((s, F))[1]
        ffn = dev.zeros((s, H))[1]
        res2 = dev.zeros((s, H))[1]
        self.pout, out = dev.zeros((s, H))
        norm = opsnn.aclCreateIntArray([H])
        one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
        scale = opsnn.aclCreateScalar(1.0 / math.sqrt(dh), opsnn.aclDataType.ACL_FLOAT)
        a = opsnn
        x = self.x
        #: (label, phase 1 thunk, phase 2)
        self.ops = [
            ("Q proj", lambda: a.aclnnAddmmGetWorkspaceSize(b["bq"], x, w["wq"], one, one, q, 0), a.aclnnAddmm),
            ("K proj", lambda: a.aclnnAddmmGetWorkspaceSize(b["bk"], x, w["wk"], one, one, k, 0), a.aclnnAddmm),
            ("V proj", lambda: a.aclnnAddmmGetWorkspaceSize(b["bv"], x, w["wv"], one, one, v, 0), a.aclnnAddmm),
            ("Q K^T", lambda: a.aclnnBatchMatMulGetWorkspaceSize(qh, kt, scores, 0), a.aclnnBatchMatMul),
            ("scale", lambda: a.aclnnMulsGetWorkspaceSize(scores, scale, scaled), a.aclnnMuls),
            ("softmax", lambda: a.aclnnSoftmaxGetWorkspaceSize(scaled, -1, probs), a.aclnnSoftmax),
            ("P V", lambda: a.aclnnBatchMatMulGetWorkspaceSize(probs, vh, ctx, 0), a.aclnnBatchMatMul),
            ("heads->seq", lambda: a.aclnnPermuteGetWorkspaceSize(ctx, a.aclCreateIntArray([1, 0, 2]), ctx2),
             a.aclnnPermute),
            ("out proj", lambda: a.aclnnAddmmGetWorkspaceSize(b["bo"], ctx2d, w["wo"], one, one, attn, 0),
             a.aclnnAddmm),
            ("residual 1", lambda: a.aclnnAddGetWorkspaceSize(attn, x, one, res1), a.aclnnAdd),
            ("LayerNorm 1", lambda: a.aclnnLayerNormGetWorkspaceSize(res1, norm, g1, be1, 1e-5, ln1),
             a.aclnnLayerNorm),
            ("FFN up", lambda: a.aclnnAddmmGetWorkspaceSize(b1, ln1, w1, one, one, hmid, 0), a.aclnnAddmm),
            ("Gelu", lambda: a.aclnnGeluGetWorkspaceSize(hmid, hg), a.aclnnGelu),
            ("FFN down", lambda: a.aclnnAddmmGetWorkspaceSize(b2, hg, w2, one, one, ffn, 0), a.aclnnAddmm),
            ("residual 2", lambda: a.aclnnAddGetWorkspaceSize(ffn, ln1, one, res2), a.aclnnAdd),
            ("LayerNorm 2", lambda: a.aclnnLayerNormGetWorkspaceSize(res2, norm, g2, be2, 1e-5, out),
             a.aclnnLayerNorm),
        ]
        self.dev = dev
        self.workspace = 0
        self.ws_size = 0

    def _ws(self, ws: int) -> int:
        if ws > self.ws_size:
            self.workspace, self.ws_size = self.dev.malloc(ws), ws
        return self.workspace

    def reference(self) -> np.ndarray:
        """float64 numpy of the same layer."""
        p = {k: v.astype(np.float64) for k, v in self.np.items()}
        x = self.x_np.astype(np.float64)
        s, H, nh = self.s, self.H, self.HEADS
        dh = H // nh
        q, k, v = (x @ p[f"w{n}"] + p[f"b{n}"] for n in "qkv")
        heads = lambda t: t.reshape(s, nh, dh).transpose(1, 0, 2)  # noqa: E731
        sc = heads(q) @ heads(k).transpose(0, 2, 1) / math.sqrt(dh)
        e = np.exp(sc - sc.max(-1, keepdims=True))
        ctx = (e / e.sum(-1, keepdims=True)) @ heads(v)
        attn = ctx.transpose(1, 0, 2).reshape(s, H) @ p["wo"] + p["bo"]

        def ln(t, gname, bname):
            return (t - t.mean(-1, keepdims=True)) / np.sqrt(t.var(-1, keepdims=True) + 1e-5) * p[gname] + p[bname]
        h1 = ln(attn + x, "g1", "be1")
        u = h1 @ p["w1"] + p["b1"]
        gelu = 0.5 * u * (1 + np.vectorize(math.erf)(u / math.sqrt(2)))
        return ln(gelu @ p["w2"] + p["b2"] + h1, "g2", "be2")

    def prepare_all(self) -> list:
        """Phase 1 of every op once, repeatable: [(executor, ws, phase 2)]."""
        out = []
        for label, p1, p2 in self.ops:
            ws, ex, ret = p1()
            self.dev._ok(ret, f"{label} phase 1")
            self.dev._ok(opsnn.aclSetAclOpExecutorRepeatable(ex), "repeatable")
            out.append((ex, ws, p2))
        return out

    def run(self, prepared: list | None = None) -> float:
        """Enqueue the layer once (phase 1 + 2 per op, or phase 2 only with
        ``prepared``). Returns the Python wall time of the host calls (s)."""
        t0 = time.perf_counter()
        if prepared is None:
            for label, p1, p2 in self.ops:
                ws, ex, ret = p1()
                if ret != 0 or p2(self._ws(ws) if ws else 0, ws, ex, 0) != 0:
                    raise RuntimeError(f"{label}: {opsnn.aclGetRecentErrMsg()}")
        else:
            for ex, ws, p2 in prepared:
                if p2(self.workspace if ws else 0, ws, ex, 0) != 0:
                    raise RuntimeError(opsnn.aclGetRecentErrMsg())
        return time.perf_counter() - t0


def measure_layer(layer: BertLayer, mode: str, trace_dir: Path | None) -> dict:
    prepared = None
    opsnn.set_executor_cache(enabled=mode != "cache off")
    if mode == "prepared once":
        prepared = layer.prepare_all()
        for ex, ws, _ in prepared:
            layer._ws(ws)
    layer.run(prepared)                                   # warm-up (fills the cache)
    rt = runtime()
    settle()
    start, _ = acl.rt.create_event()
    end, _ = acl.rt.create_event()
    h0 = rt.clock.now_ns
    acl.rt.record_event(start, 0)
    wall = layer.run(prepared)
    acl.rt.record_event(end, 0)
    host_ns = rt.clock.now_ns - h0
    Dev._ok(acl.rt.synchronize_stream(0), "aclrtSynchronizeStream")
    ms, ret = acl.rt.event_elapsed_time(start, end)
    Dev._ok(ret, "aclrtEventElapsedTime")
    (cp,) = traces.critical_path(rt.trace_data())   # host + device tracks
    kernels = sum(1 for t in cp["tasks"] if t["task_type"] in ("AI_CORE", "AI_VECTOR_CORE"))
    got = layer.dev.get(layer.pout, (layer.s, layer.H)).astype(np.float64)
    ref = layer.reference()
    err = float(np.abs(got - ref).max() / np.abs(ref).max())
    if trace_dir is not None:
        trace_dir.mkdir(parents=True, exist_ok=True)
        path = trace_dir / f"bert_layer_{mode.replace(' ', '_')}.json"
        rt.write_trace(str(path))
    if prepared:
        for ex, _, _ in prepared:
            opsnn.aclDestroyAclOpExecutor(ex)
    return {"mode": mode, "latency_us": ms * 1e3, "host_us": host_ns / 1e3, "busy_us": cp["busy_ns"] / 1e3,
            "idle_us": cp["idle_ns"] / 1e3, "host_idle_us": cp["host_bound_idle_ns"] / 1e3,
            "span_us": cp["span_ns"] / 1e3, "kernels": kernels, "wall_us": wall * 1e6, "err": err}


def part2(console: Console, trace_dir: Path | None) -> list[dict]:
    dev = open_device()
    layer = BertLayer(dev)
    rows = [measure_layer(layer, m, trace_dir) for m in ("cache off", "cache on", "prepared once")]
    t = Table(title=f"Part 2 - BERT-base encoder layer, batch 1, seq 32, float16, {CHIP}: simulated time (us)")
    for col in ("phase 1 per op", "layer latency", "vs cache off", "host time", "device busy", "device idle",
                "idle waiting on host", "kernels", "max rel err", "Python wall"):
        t.add_column(col, justify="right" if col != "phase 1 per op" else "left")
    base = rows[0]["latency_us"]
    labels = {"cache off": "re-prepared, cache off", "cache on": "re-prepared, cache hit",
              "prepared once": "none (repeatable)"}
    for r in rows:
        span = max(r["span_us"], 1e-9)
        t.add_row(labels[r["mode"]], f"{r['latency_us']:.1f}", f"{base / r['latency_us']:.2f}x",
                  f"{r['host_us']:.1f}", f"{r['busy_us']:.1f}", f"{r['idle_us']:.1f} ({r['idle_us'] / span:.0%})",
                  f"{r['host_idle_us']:.1f} ({r['host_idle_us'] / span:.0%})", str(r["kernels"]),
                  f"{r['err']:.1e}" if r["err"] < ERR_TOL else f"[red]{r['err']:.1e} (> {ERR_TOL})[/]",
                  f"{r['wall_us']:.0f}")
    console.print(t)
    console.print(f"  16 ops; latency = start event to end event around one layer (after a warm-up layer); "
                  "shares are of the stream's span; idle waiting on host = gaps that end when the host's launch "
                  "of the next task ends. Python wall: real time of the layer's host calls.")
    if trace_dir is not None:
        console.print(f"  traces written to {trace_dir}/bert_layer_*.json (open in Perfetto)")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.two_phase", description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fewer calls per batch and fewer batches")
    ap.add_argument("--calls", type=int, default=None, help="calls per timed batch (default 200, quick 50)")
    ap.add_argument("--reps", type=int, default=None, help="timed batches per column (default 7, quick 5)")
    ap.add_argument("--trace", type=Path, default=None, help="write the BERT layer traces to this directory")
    ap.add_argument("--part", choices=("1", "2", "all"), default="all")
    args = ap.parse_args(argv)
    calls = args.calls or (50 if args.quick else 200)
    reps = args.reps or (5 if args.quick else 7)
    console = Console(width=max(Console().width, 150))
    prev = opsnn.set_executor_cache()
    try:
        if args.part in ("1", "all"):
            part1(console, calls, reps)
        if args.part in ("2", "all"):
            part2(console, args.trace)
    finally:
        opsnn.set_executor_cache(**prev)
        if runtime().initialized:
            acl.finalize()
    console.print(f"  executor cache: {opsnn.executor_cache_stats()}\n  handle pool: {opsnn.executor_pool_stats()}\n"
                  "  (the pool recycles executors released by their run or destroyed; the 'p1 alone' loops drop "
                  "theirs unrun, so those are new allocations)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
