"""The simulator's own speed: ``python -m benchmarks.sim_speed [--models a,b] [--quick] [--repeat N] [--mode eager] [--models-only]``.

Part 1 -- per model (every light model onnx ships, and paraphrase-MiniLM-L3-v2 when
installed, at batch 2 x seq 16 and 8 x 128: ``MINILM``), each measurement in a fresh child process, the modes interleaved
(full, timing-only, reference, onnxruntime; then again, ``--repeat`` times; the
median is printed):

* ``full``: ``npu-sim run --no-check``'s path with numbers and the full (pipes) trace
  written: by default its default path (``--mode graph``: graph passes, planned memory,
  one capture replayed); ``--mode eager`` measures one aclnn call per node instead;
* ``timing``: ``acl.init(timing_only=True)`` (``npu-sim run --timing-only``) with
  trace level "off";
* ``ref``: onnx's ``ReferenceEvaluator`` on the same feeds; ``ort``: onnxruntime on
  CPU when installed. Their wall is the whole run a user script has (``onnx.load``, the
  session built, the run), as npu-sim's is (load, prepare, simulate, trace); package
  imports are excluded on both sides and measured on their own below;
* the ratios full/ref and timing/ref, SimPy events processed and events per wall
  second of the simulate phase, peak host memory (``ru_maxrss``) and the share of
  each phase: import, load (ONNX parse + fold), prepare (uploads + phase 1),
  simulate (phase 2 + the device run, bodies included), trace (build + write).
  The bodies' share is about full's simulate minus timing's.

Part 2 -- scaling, timing-only, trace level "kernels": a chain of N Add 1x768
(fp16) kernels, N = 100 .. 100,000 (``--quick``: .. 2000), with the exponent of a
least-squares fit of log(wall) on log(N) over N >= 1000 (below that the fixed cost
of a session dominates; the fit over all N is printed too). Linear: exponent ~1.
Then one Matmul n x n x n, n = 256 .. 16384 (``--quick``: .. 1024), on the fast
path and on the per-block event path, with its tile steps (output tiles x K chunks)
and timed steps per block, and the exponent of wall against tile steps for both
(:func:`matmul_scaling`: under 1, as the tiling caps a block's timed steps).
Also prints the wall time per tiny kernel (the chain's slope). Then host memory
against N: the same chain at trace levels "off" and "kernels", N = 100 .. 100,000
(``--quick``: .. 3000), retained host bytes (tracemalloc, after a collection) per
kernel and the fitted exponent of log(bytes) on log(N). Records and packed spans
are typed columns (a few hundred bytes per kernel, npu_sim/records.py) spilled to a
temporary file every 16,384 entries, so beyond that the retained bytes stop growing:
the exponent is ~1 for the --quick sizes and well below 1 over the full range.

Between the parts: the import time of each top-level package (fresh child, median of
3), the wall us per tiny kernel with the uncontended fast path and with the event path
(interleaved pairs in one process; npu_sim/hardware/inline.py), and a 32-layer
llama-7b decoder step (KV cache 2048) in timing-only mode with trace level "off".

(Over 300 lines on purpose: one benchmark whose parts share the session helpers.)

Every child runs with bytecode cached, as an installed package has it (``_child_env``),
after one untimed warm-up round.

Wall times on a shared machine are noisy: read the ratios of one run, not absolutes.
"""
from __future__ import annotations

import argparse
import json
import math
import resource
import statistics
import subprocess
import sys
import time

import numpy as np

MODES = ("full", "timing", "ref", "ort")
#: MiniLM at batch 2 x seq 16 (the reference evaluates it in ~0.05 s, so fixed costs set
#: the ratio) and at batch 8 x seq 128, a sentence-embedding batch
MINILM = ("paraphrase-MiniLM-L3-v2@2,16", "paraphrase-MiniLM-L3-v2@8,128")


def _declared_inputs(proto) -> dict:
    """A model's runtime inputs as declared (name -> (shape, dtype); -1 for a dynamic
    dim), read from the ModelProto without folding anything."""
    from onnx import helper
    inits = {i.name for i in proto.graph.initializer}
    return {vi.name: (tuple(d.dim_value if d.HasField("dim_value") else -1 for d in vi.type.tensor_type.shape.dim),
                      np.dtype(helper.tensor_dtype_to_np_dtype(vi.type.tensor_type.elem_type)))
            for vi in proto.graph.input if vi.name not in inits}


def _feeds(inputs: dict, seed: int = 0, dims: tuple[int, int] = (2, 16)) -> dict:
    """Seeded inputs; dynamic dims become ``dims[0]`` (the first, a batch; default 2)
    and ``dims[1]`` (others, e.g. a sequence; default 16); an integer input named like a mask is all ones, other integer inputs
    are token ids in [1000, 9000)."""
    rng = np.random.default_rng(seed)
    out = {}
    for name, (shape, dtype) in inputs.items():
        shape = [d if d >= 0 else (dims[0] if i == 0 else dims[1]) for i, d in enumerate(shape)]
        if np.dtype(dtype).kind == "f":
            out[name] = rng.standard_normal(shape).astype(dtype)
        elif "mask" in name:
            out[name] = np.ones(shape, dtype)
        else:
            out[name] = rng.integers(1000, 9000, size=shape).astype(dtype)
    return out


def _child(model: str, mode: str, exec_mode: str = "graph", dims: str = "2,16") -> dict:
    """One measurement in this (fresh) process; returns a JSON-able dict. ``exec_mode``
    "graph" is ``npu-sim run``'s default path (graph passes, ``--memory planned``, one
    capture replayed); "eager" launches one aclnn call per node (``--mode eager
    --memory naive --no-capture``)."""
    if "@" in model:   # "name@B,S": the dynamic dims (see _feeds)
        model, dims = model.split("@", 1)
    t0 = time.perf_counter()
    from frontend.cli.common import load_graph, resolve_model
    res: dict = {}
    if mode in ("full", "timing"):
        from acl_runtime import acl, profiler
        from frontend.runner import ModelRunner
        from acl_runtime.runtime import runtime
    elif mode == "ref":
        from frontend.reference import reference_evaluator
    else:
        import onnxruntime as ort
    import onnx
    t1 = time.perf_counter()
    proto = onnx.load(str(resolve_model(model)))
    t_parse = time.perf_counter() - t1
    feeds = _feeds(_declared_inputs(proto), dims=tuple(int(d) for d in dims.split(",")))
    # one parse and one fold, as npu-sim run: dynamic dims pinned by the feeds (as --inputs does)
    # timing-only: big weights as metadata only, as npu-sim run --timing-only loads them (frontend.meta_const)
    graph = load_graph(proto, overrides=feeds, timing_only=mode == "timing")
    t2 = time.perf_counter()
    if mode in ("ref", "ort"):
        if mode == "ref":
            sess = reference_evaluator(graph.model)
        else:
            sess = ort.InferenceSession(graph.model.SerializeToString(), providers=["CPUExecutionProvider"])
        t3 = time.perf_counter()
        sess.run(None, feeds)
        t4 = time.perf_counter()
        # the whole run as a user script has it, imports excluded (as for npu-sim): onnx.load,
        # the session built, the run (not npu-sim's load_graph fold, which only npu-sim needs)
        res.update(wall=t_parse + t4 - t2, phases={"import": t1 - t0, "load": t_parse, "session": t3 - t2,
                                                   "run": t4 - t3})
    else:
        import tempfile
        assert acl.init(timing_only=mode == "timing") == 0 and acl.rt.set_device(0) == 0
        profiler.set_level("pipes" if mode == "full" else "off")
        if exec_mode == "graph":
            runner = ModelRunner(graph, mode="graph", memory="planned")
            runner.prepare()
            runner.program.try_capture(runner.memory_report().live)
        else:
            runner = ModelRunner(graph, mode="eager", memory="naive")
            runner.prepare()
        t3 = time.perf_counter()
        result = runner.run(feeds)
        t4 = time.perf_counter()
        if mode == "full":
            with tempfile.TemporaryDirectory() as d:
                profiler.write_trace(f"{d}/t.json")
        t5 = time.perf_counter()
        events = next(runtime().device.env._eid)   # SimPy's event id counter: events scheduled so far
        acl.finalize()
        res.update(wall=t5 - t1, sim_ns=result.device_ns, events=events, events_per_s=events / max(t4 - t3, 1e-9),
                   phases={"import": t1 - t0, "load": t2 - t1, "prepare": t3 - t2, "simulate": t4 - t3,
                           "trace": t5 - t4})
    res["rss_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return res


def _child_env() -> dict:
    """The environment of every measured child: bytecode cached as an installed package
    has it. ``PYTHONDONTWRITEBYTECODE`` is dropped and, unless the caller set one,
    ``PYTHONPYCACHEPREFIX`` points at a cache directory outside the tree, so npu-sim, onnx
    and numpy all import from bytecode after the untimed warm-up round (:func:`part1`);
    otherwise an editable install under ``PYTHONDONTWRITEBYTECODE=1`` recompiles npu-sim's
    ~900 modules from source in every child while onnx reads the bytecode pip wrote."""
    import os
    import tempfile
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.setdefault("PYTHONPYCACHEPREFIX", os.path.join(tempfile.gettempdir(), "npu_sim_bench_pycache"))
    return env


def _measure(model: str, mode: str, exec_mode: str = "graph") -> dict | None:
    p = subprocess.run([sys.executable, "-m", "benchmarks.sim_speed", "--child", model, mode, exec_mode],
                       capture_output=True, text=True, env=_child_env())
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or ["(no message)"])[-1]
        print(f"WARNING {model} {mode}: the child failed: {last}", file=sys.stderr)
        return None
    return json.loads(p.stdout.strip().splitlines()[-1])


def _have_ort() -> bool:
    try:
        import onnxruntime  # noqa: F401
        return True
    except ImportError:
        return False


def part1(models: list[str], repeat: int, exec_mode: str = "graph") -> None:
    from rich.console import Console
    from rich.table import Table
    modes = [m for m in MODES if m != "ort" or _have_ort()]
    table = Table(title=f"simulator wall time (s, median of interleaved runs; npu-sim in {exec_mode} mode)")
    ort_cols = ("full/ort", "timing/ort") if "ort" in modes else ()
    for col in ("model", *modes, "full/ref", "timing/ref", *ort_cols, "events", "events/s", "rss MiB (full/timing)",
                "phases of full (imp/load/prep/sim/trace %)", "phases of timing (%)"):
        table.add_column(col, justify="right" if col != "model" else "left")
    for m in modes:   # untimed warm-up: every child after it imports from bytecode (_child_env)
        _measure(models[0], m, exec_mode)
    for model in models:
        runs: dict[str, list[dict]] = {m: [] for m in modes}
        for _ in range(repeat):
            for m in modes:
                r = _measure(model, m, exec_mode)
                if r is not None:
                    runs[m].append(r)
        med = {m: statistics.median(r["wall"] for r in rs) if rs else math.nan for m, rs in runs.items()}
        full = runs["full"][0] if runs["full"] else None
        tim = runs["timing"][0] if runs["timing"] else None
        if full and tim and full["sim_ns"] != tim["sim_ns"]:
            print(f"WARNING {model}: timing-only simulated {tim['sim_ns']} ns, full {full['sim_ns']} ns")
        ph = _shares(full)
        ph_t = _shares(tim)
        table.add_row(model, *(f"{med[m]:.2f}" for m in modes), f"{med['full'] / med['ref']:.2f}",
                      f"{med['timing'] / med['ref']:.2f}",
                      *((f"{med['full'] / med['ort']:.2f}", f"{med['timing'] / med['ort']:.2f}") if ort_cols else ()),
                      f"{full['events']:,}" if full else "-",
                      f"{full['events_per_s']:,.0f}" if full else "-",
                      f"{full['rss_mib']:.0f}/{tim['rss_mib']:.0f}" if full and tim else "-", ph, ph_t)
    Console(width=220).print(table)


def _shares(run: dict | None) -> str:
    """A run's phases (import/load/prepare/simulate/trace) as percent of their sum."""
    if not run:
        return "-"
    tot = sum(run["phases"].values()) or 1.0
    return "/".join(f"{100 * v / tot:.0f}" for v in run["phases"].values())


def import_times() -> None:
    """Wall time of the imports a run pays, each in a fresh child (median of 3, after
    one untimed child that writes the bytecode cache: :func:`_child_env`)."""
    mods = {"ml_dtypes (via acl_runtime.acl_base)": "import ml_dtypes",
            "npu_sim": "import npu_sim", "acl_runtime": "import acl_runtime",
            "opsnn": "import opsnn", "frontend.runner": "import frontend.runner"}
    env = _child_env()
    print(f"import time (fresh process, median of 3; bytecode cached in {env['PYTHONPYCACHEPREFIX']}):")
    for label, stmt in mods.items():
        code = f"import time; t = time.perf_counter(); {stmt}; print(time.perf_counter() - t)"
        ts = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env).stdout
                    or "nan") for _ in range(4)][1:]
        print(f"  {label:40s} {1e3 * statistics.median(ts):8.0f} ms")


def tiny_kernel(pairs: int = 5, n: int = 1000) -> None:
    """Wall us per tiny kernel (Add 1x768 fp16, ascend910b2, timing-only, trace level
    kernels), the fast path and the event path interleaved in this process (median)."""
    import opsnn
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    from opsnn.base.dtypes import from_numpy_dtype

    def one(fast: bool) -> float:
        if runtime().initialized:
            acl.finalize()
        assert acl.init(timing_only=True) == 0 and acl.rt.set_device(0) == 0
        profiler.set_level("kernels")
        runtime().device.fast_path = fast
        ts = []
        for _ in range(2):
            ptr, _ = acl.rt.malloc(1536, 0)
            ts.append(opsnn.aclCreateTensor((1, 768), from_numpy_dtype(np.dtype(np.float16)), None, 0, 2,
                                            (1, 768), ptr))
        ws, ex, _ = opsnn.aclnnAddGetWorkspaceSize(ts[0], ts[0], 1.0, ts[1])
        opsnn.aclSetAclOpExecutorRepeatable(ex)
        opsnn.aclnnAdd(0, ws, ex, 0)
        acl.rt.synchronize_device()
        t0 = time.perf_counter()
        for _ in range(n):
            opsnn.aclnnAdd(0, ws, ex, 0)
        acl.rt.synchronize_device()
        return 1e6 * (time.perf_counter() - t0) / n

    ev, fa = [], []
    for _ in range(pairs):
        ev.append(one(False))
        fa.append(one(True))
    acl.finalize()
    print(f"tiny kernel (Add 1x768, {n} per run, median of {pairs} interleaved pairs): "
          f"{statistics.median(fa):.1f} us fast path, {statistics.median(ev):.1f} us event path")


def decoder_32(layers: int = 32, cache_len: int = 2048) -> None:
    """A 32-layer llama-7b decoder step, timing-only with trace level "off" (as the
    ``timing`` mode of part 1): one layer's ops prepared once (the layers share
    shapes) and launched ``layers`` times; prints the wall time."""
    from acl_runtime import profiler
    from acl_runtime.api import Session
    from frontend.workloads.builders import decoder_step
    from frontend.workloads.config import PRESETS
    t0 = time.perf_counter()
    with Session("ascend910b2", timing_only=True) as s:
        profiler.set_level("off")
        wl = decoder_step(s, PRESETS["llama-7b"], batch=1, cache_len=cache_len)
        t1 = time.perf_counter()
        lat = sum(wl.run().latency_ns for _ in range(layers))
    t2 = time.perf_counter()
    print(f"decoder step llama-7b x{layers} layers (KV cache {cache_len}, timing-only): wall {t2 - t0:.2f} s "
          f"(prepare {t1 - t0:.2f} s, simulate {t2 - t1:.2f} s), {lat / 1e3:,.1f} us simulated")


def _fit(xs, ys) -> float:
    return float(np.polyfit(np.log(xs), np.log(ys), 1)[0])


def part2(quick: bool) -> None:
    import gc
    import opsnn
    from acl_runtime import acl, profiler
    from acl_runtime.runtime import runtime
    from opsnn.base.dtypes import from_numpy_dtype

    class _Dev:
        def malloc(self, nbytes):
            ptr, ret = acl.rt.malloc(max(int(nbytes), 1), 0)
            assert ret == 0
            return ptr

        def empty(self, shape, dtype):
            ptr = self.malloc(int(np.prod(shape)) * np.dtype(dtype).itemsize)
            return ptr, opsnn.aclCreateTensor(shape, from_numpy_dtype(np.dtype(dtype)), None, 0, 2, shape, ptr)

    def session():
        if runtime().initialized:
            acl.finalize()
        assert acl.init(timing_only=True) == 0 and acl.rt.set_device(0) == 0
        profiler.set_level("kernels")
        return _Dev()

    ns = [100, 300, 1000, 2000] + ([] if quick else [5000, 10000, 30000, 100000])
    walls, mems = [], []
    for n in ns:
        h = session()
        _, x = h.empty((1, 768), np.float16)
        _, y = h.empty((1, 768), np.float16)
        ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
        opsnn.aclSetAclOpExecutorRepeatable(ex)
        gc.collect()
        t0 = time.perf_counter()
        for _ in range(n):
            opsnn.aclnnAdd(0, ws, ex, 0)
        acl.rt.synchronize_device()
        walls.append(time.perf_counter() - t0)
        mems.append(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print("chain of N Add 1x768 kernels (timing-only, trace level kernels):")
    for n, w, m in zip(ns, walls, mems):
        print(f"  N={n:6d}  wall {w:7.3f} s  {1e6 * w / n:6.1f} us/kernel  peak rss {m:6.0f} MiB")
    big = [(n, w) for n, w in zip(ns, walls) if n >= 1000]
    if len(big) >= 2:
        print(f"  fitted exponent (wall ~ N^k) on N >= 1000, where the fixed cost no longer dominates: "
              f"k = {_fit(*zip(*big)):.2f}")
    print(f"  (on all N: k = {_fit(ns, walls):.2f})")
    matmul_scaling(quick, session)
    memory_scaling(quick, session)


def matmul_scaling(quick: bool, session, repeat: int = 3) -> None:
    """One Matmul n x n x n fp16 (timing-only, trace "kernels"; phase 1 + simulate) for
    n = 256 .. 16384 (``--quick``: .. 1024), with the uncontended fast path (default)
    and with the per-block event path (``Device.fast_path = False``, as
    NPU_SIM_FAST_PATH=0). Prints the tiling (output tiles x K chunks = tile steps, and
    the timed steps per block after K chunks merge: ``MatmulTilingData``) and the
    fitted exponent of wall against tile steps for both paths. The cube tiling caps a
    block's timed steps (MAX_CUBE_STEPS_PER_BLOCK), so beyond a few thousand tiles the
    wall time stops growing with the tile count: an exponent well under 1, which is
    better than linear. Each wall is the median of ``repeat`` interleaved runs (one
    run's noise on a busy 2-core machine moved the fitted exponent by 0.15)."""
    import opsnn
    from acl_runtime import acl
    from acl_runtime.runtime import runtime
    from opsnn.base.cache import clear_executor_cache
    sizes = [256, 512, 1024] + ([] if quick else [2048, 4096, 8192, 16384])
    rows = []
    for n in [128] + sizes:   # the first is a warm-up
        walls = {True: [], False: []}
        for _ in range(repeat):   # interleaved: fast, event, fast, event, ...
            for fast in (True, False):
                clear_executor_cache()   # both paths pay a cold phase 1
                h = session()
                runtime().device.fast_path = fast
                _, a = h.empty((n, n), np.float16)
                _, c = h.empty((n, n), np.float16)
                t0 = time.perf_counter()
                ws, ex, ret = opsnn.aclnnMatmulGetWorkspaceSize(a, a, c, 0)
                opsnn.aclnnMatmul(h.malloc(ws) if ws else 0, ws, ex, 0)
                acl.rt.synchronize_device()
                walls[fast].append(time.perf_counter() - t0)
                td = (ex.plan.info or {}).get("tiling") or {}   # MatmulTilingData's fields (phase 1's info)
        row = [n, statistics.median(walls[True]), statistics.median(walls[False])]
        steps = td.get("out_tiles", 0) * td.get("k_chunks", 0)
        per_block = -(-td.get("out_tiles", 0) // max(td.get("block_dim", 1), 1)) * \
            -(-td.get("k_chunks", 0) // max(td.get("chunks_per_step", 1), 1))
        rows.append(row + [steps, per_block])
        acl.finalize()
    rows = rows[1:]
    print(f"one Matmul n x n x n fp16 (timing-only; phase 1 + simulate, median of {repeat}; tiling from MatmulTilingData):")
    for n, fa, ev, steps, pb in rows:
        print(f"  n={n:5d}  tiles x K chunks {steps:9,d}  timed steps/block {pb:4d}  "
              f"wall {fa:7.3f} s fast path, {ev:7.3f} s event path")
    st = [r[3] for r in rows]
    print(f"  fitted exponent (wall ~ tiles^k): fast path k = {_fit(st, [r[1] for r in rows]):.2f}, "
          f"event path k = {_fit(st, [r[2] for r in rows]):.2f}  (timed steps per block are capped, see docstring)")
    big = [r for r in rows if r[0] >= 1024 and r[4] > 0]
    if len(big) >= 2:
        pb = [r[4] for r in big]
        print(f"  against timed steps per block (the events simulated), n >= 1024: fast path "
              f"k = {_fit(pb, [r[1] for r in big]):.2f}, event path k = {_fit(pb, [r[2] for r in big]):.2f}")


def memory_scaling(quick: bool, session) -> None:
    """Retained host bytes of a chain of N tiny Add kernels against N (module docstring)."""
    import gc
    import tracemalloc

    import opsnn
    from acl_runtime import acl, profiler

    ns = [100, 300, 1000, 3000] + ([] if quick else [10000, 30000, 100000])
    print("host memory of a chain of N Add 1x768 kernels (timing-only; tracemalloc, retained after the run):")
    for level in ("off", "kernels"):
        grown = []
        for n in ns:
            h = session()
            profiler.set_level(level)
            _, x = h.empty((1, 768), np.float16)
            _, y = h.empty((1, 768), np.float16)
            ws, ex, ret = opsnn.aclnnAddGetWorkspaceSize(x, x, 1.0, y)
            opsnn.aclSetAclOpExecutorRepeatable(ex)
            opsnn.aclnnAdd(0, ws, ex, 0)
            acl.rt.synchronize_device()
            gc.collect()
            tracemalloc.start()
            base = tracemalloc.get_traced_memory()[0]
            for i in range(n):
                opsnn.aclnnAdd(0, ws, ex, 0)
                if i % 1000 == 999:
                    acl.rt.synchronize_device()
            acl.rt.synchronize_device()
            gc.collect()
            grown.append(max(tracemalloc.get_traced_memory()[0] - base, 1))
            tracemalloc.stop()
            acl.finalize()
        rows = "  ".join(f"N={n}: {g / n:,.0f} B/kernel" for n, g in zip(ns, grown))
        print(f"  level {level:7s} {rows}")
        print(f"  level {level:7s} fitted exponent (bytes ~ N^k): k = {_fit(ns, grown):.2f}")


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        v = 0
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {text!r}")
    return v


def _check_models(models: list[str]) -> str | None:
    """None when every ``--models`` entry names a model npu-sim can load (an .onnx file,
    a light model or MiniLM, ``frontend.cli.common.resolve_model``), each ``@B,S`` being
    two integers >= 1; else a one-line reason, so a typo fails before minutes of runs."""
    from frontend.cli.common import CliError, resolve_model
    for entry in models:
        name, _, dims = entry.partition("@")
        try:
            resolve_model(name)
        except CliError as e:
            return f"--models: {e}"
        if dims and not (len(dims.split(",")) == 2 and all(d.strip().isdigit() and int(d) >= 1
                                                           for d in dims.split(","))):
            return f"--models: {entry!r}: expected NAME@B,S with two integers >= 1, e.g. {MINILM[0]}"
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", help="comma-separated light model names; NAME@B,S sets a model's dynamic dims, and then "
                                     "';' separates the names (default: all, plus MiniLM at 2x16 and 8x128)")
    ap.add_argument("--quick", action="store_true", help="light ResNet-50 and MiniLM only, smaller scaling runs")
    ap.add_argument("--repeat", type=_positive, default=1,
                    help="interleaved rounds per model; the median is printed (default 1)")
    ap.add_argument("--no-models", action="store_true", help="scaling only")
    ap.add_argument("--models-only", action="store_true",
                    help="part 1 only: no import times, tiny kernel, decoder step or scaling runs")
    ap.add_argument("--mode", choices=("graph", "eager"), default="graph",
                    help="npu-sim's execution path in part 1: graph (npu-sim run's default: graph passes, "
                         "planned memory, one capture replayed) or eager (one aclnn call per node, naive memory, "
                         "no capture)")
    ap.add_argument("--child", nargs=3, metavar=("MODEL", "MODE", "EXEC"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        if args.child[1] not in MODES or args.child[2] not in ("graph", "eager"):
            ap.error(f"--child MODEL MODE EXEC: MODE is one of {', '.join(MODES)}, EXEC graph or eager")
        print(json.dumps(_child(*args.child)))
        return 0
    try:
        return _run(ap, args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def _run(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """The benchmark's parts as ``args`` selects them (``main`` without ``--child``)."""
    if args.no_models and args.models_only:
        ap.error("--no-models and --models-only leave nothing to run")
    if not args.no_models:
        if args.models is not None and not args.models.strip(" ,;"):
            ap.error("--models: no model named")
        if args.models:
            models = [m.strip() for m in args.models.split(";" if "@" in args.models else ",") if m.strip()]
            bad = _check_models(models)
            if bad:
                ap.error(bad)
        elif args.quick:
            models = ["light_resnet50", *MINILM]
        else:
            from frontend.model_zoo import light_models
            models = [m.removesuffix(".onnx") for m in light_models()] + list(MINILM)
        part1(models, args.repeat, args.mode)
        if args.models_only:
            return 0
    import_times()
    tiny_kernel(3 if args.quick else 5)
    decoder_32()
    part2(args.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
