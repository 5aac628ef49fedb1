"""How ``npu-trace`` scales: summary and view of a synthetic million-span trace,
and of a ~1 GB one (``--big``).

    python -m benchmarks.trace_scale [--spans 1000000] [--keep FILE] [--big [--big-gb 1.0]]

Writes a trace shaped like an npu-sim run (a host thread launching kernels on two
streams, each kernel with MTE2/CUBE/FIXPIPE spans on 24 AIC cores or
MTE2/VECTOR/MTE3 on 48 AIV cores; args as npu-sim writes them), then runs each
stage in its own Python process and prints its wall time and peak resident memory
(``ru_maxrss`` of that process), and its CPU time (``time.process_time``; the
wall time on a shared machine can be many times that):

* ``imports``: no trace, only the interpreter, numpy and rich (the floor of the others);
* ``load``: read the file into spans (whole-file json; not with ``--big``);
* ``load (stream)``: the same, streamed into compact columns (:mod:`traces.stream_load`);
* ``load (ijson)``: the same with ijson as the parser, if it is installed;
* ``summary``: bounded load (:mod:`traces.bounded_load`: pipe spans folded into
  per-track aggregates and merged busy intervals as they stream) + every table
  ``npu-trace summary`` prints (rendered to a null console);
* ``view``: bounded load + the terminal timeline at 200 columns, streams and cores
  (a second pass over the file fills the time cells).

``--big`` writes a trace of about ``--big-gb`` GB (the same shape; events written
one at a time, so the generator's memory stays small) and runs the streamed stages
on it; the peak RSS column is then to be read against the file size.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time


class _Events:
    """Writes each appended event to ``f`` at once, as ``json.dump`` of the whole
    list would (compact separators), so memory does not grow with the trace."""

    def __init__(self, f):
        self.f, self.n = f, 0
        f.write('{"traceEvents":[')

    def append(self, ev: dict) -> None:
        self.f.write(("," if self.n else "") + json.dumps(ev, separators=(",", ":")))
        self.n += 1

    def close(self, other: dict) -> None:
        self.f.write('],"otherData":' + json.dumps(other, separators=(",", ":")) + "}")


def make_trace(n_spans: int, path: str) -> int:
    """Write a synthetic trace with about ``n_spans`` X events to ``path``; returns
    the exact count. Times in us, as the writer's."""
    with open(path, "w") as f:
        ev = _Events(f)
        count = _fill(ev, n_spans)
        ev.close({"chip": "synthetic"})
    return count


def _fill(ev: "_Events", n_spans: int) -> int:
    rng = random.Random(0)
    for e in [{"ph": "M", "name": "process_name", "pid": 1, "tid": 0, "args": {"name": "host"}},
          {"ph": "M", "name": "process_name", "pid": 2, "tid": 0, "args": {"name": "device 0"}},
          {"ph": "M", "name": "thread_name", "pid": 1, "tid": 1, "args": {"name": "thread 0"}}]:
        ev.append(e)
    tids: dict[str, int] = {}

    def tid(name: str, pid: int = 2) -> int:
        if name not in tids:
            tids[name] = len(tids) + 10
            ev.append({"ph": "M", "name": "thread_name", "pid": pid, "tid": tids[name], "args": {"name": name}})
        return tids[name]

    count, t_host, t_dev = 0, 0.0, {1: 0.0, 2: 0.0}
    ops = [("Matmul", "AI_CORE", "AIC", ("MTE2", "CUBE", "FIXPIPE"), 24),
           ("Add", "AI_VECTOR_CORE", "AIV", ("MTE2", "VECTOR", "MTE3"), 48)]
    k = 0
    while count < n_spans:
        name, tt, ct, pipes, cores = ops[k % 2]
        stream = 1 + k % 2
        dur = 3.0 + rng.random() * 4
        ev.append({"ph": "X", "name": f"aclnn{name}", "cat": "host", "pid": 1, "tid": 1, "ts": t_host, "dur": 1.0})
        start = max(t_dev[stream], t_host + 1.0)
        ev.append({"ph": "X", "name": name, "cat": "task", "pid": 2, "tid": tid(f"stream {stream}"), "ts": start,
                   "dur": dur, "args": {"task_type": tt, "block_dim": cores, "tiling_key": 0, "flops": 1e6,
                                        "pipe_busy_ns": {p: dur * 300 for p in pipes}}})
        count += 2
        for c in range(cores):
            for j, p in enumerate(pipes):
                ev.append({"ph": "X", "name": name, "cat": "pipe", "pid": 2, "tid": tid(f"{ct}{c} {p}"),
                           "ts": start + j * dur / 4, "dur": dur / 4, "args": {"bytes": 4096}})
                count += 1
        t_dev[stream] = start + dur
        t_host += 1.0
        k += 1
    return count


def _stage(stage: str, path: str) -> None:
    from rich.console import Console

    from traces.load import TraceData
    from traces.stream_load import load_trace
    t, c = time.perf_counter(), time.process_time()
    if stage == "imports":      # the interpreter, numpy and rich: what every other stage starts from
        import traces.report  # noqa: F401
        import traces.view  # noqa: F401
        data = TraceData([])
    elif stage in ("summary", "view"):   # as the commands load a big file: pipe spans aggregated as they stream
        from traces.bounded_load import load_bounded
        data = load_bounded(path)
    else:
        data = load_trace(path, stream=stage != "load", parser="ijson" if stage == "load (ijson)" else "scan",
                          keep_args=None)
    if stage == "summary":
        from traces.report import render_summary
        render_summary(Console(file=open(os.devnull, "w"), width=200), data, path)
    elif stage == "view":
        from traces.view import view_lines
        view_lines(data, 200)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # KiB on Linux
    print(json.dumps({"stage": stage, "seconds": dt, "cpu_seconds": dc, "peak_rss_mib": rss, "spans": len(data.spans)}))


def _bench(n_spans: int, keep: str | None, stages: list[str]) -> float:
    """Write a trace of ``n_spans`` spans, run ``stages`` on it, print the table;
    returns the file's bytes per span."""
    path = keep or tempfile.mktemp(suffix=".json", prefix="trace_scale_")
    t = time.perf_counter()
    n = make_trace(n_spans, path)
    size = os.path.getsize(path)
    print(f"trace: {n:,} spans, {size / 2 ** 20:,.0f} MiB, written in {time.perf_counter() - t:.1f} s ({path})")
    try:
        import ijson  # noqa: F401
        if "load (stream)" in stages:
            stages.insert(stages.index("load (stream)") + 1, "load (ijson)")
    except ImportError:
        pass
    print(f"{'stage':<14} {'wall (s)':>9} {'CPU (s)':>8} {'peak RSS (MiB)':>15} {'RSS / file':>11}")
    try:
        for stage in stages:
            out = subprocess.run([sys.executable, "-m", "benchmarks.trace_scale", "--stage", stage, "--path", path],
                                 capture_output=True, text=True, check=True).stdout
            r = json.loads(out.strip().splitlines()[-1])
            print(f"{stage:<14} {r['seconds']:>9.1f} {r['cpu_seconds']:>8.1f} {r['peak_rss_mib']:>15,.0f} "
                  f"{r['peak_rss_mib'] * 2 ** 20 / size:>10.2f}x", flush=True)
    finally:
        if not keep:
            os.unlink(path)
    return size / n


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--spans", type=int, default=1_000_000)
    p.add_argument("--keep", metavar="FILE", help="write the trace here and keep it")
    p.add_argument("--big", action="store_true", help="also a trace of about --big-gb GB (streamed stages only)")
    p.add_argument("--big-gb", type=float, default=1.0, help="size of the --big trace in GB (default 1.0)")
    p.add_argument("--stage", help=argparse.SUPPRESS)
    p.add_argument("--path", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.stage:
        _stage(a.stage, a.path)
        return 0
    per_span = _bench(a.spans, a.keep, ["imports", "load", "load (stream)", "summary", "view"])
    if a.big:
        _bench(int(a.big_gb * 1e9 / per_span), None, ["imports", "load (stream)", "summary", "view"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
