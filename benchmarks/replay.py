"""Eager launches vs a captured, replayed model run instance: ``python -m benchmarks.replay [--quick]``.

Light ResNet-50 (onnx's light model) on ``ascend910b2``, prepared once in graph mode
with the planned arena (``npu-sim run``'s defaults), then run ``--inferences`` times
(default 100; 10 with ``--quick``) two ways through ``ModelRunner.run`` (input copy,
launches between two events, synchronise, output copy):

* eager: phase 2 of every aclnn call, one ``aclnn_launch`` on the host clock per
  kernel (``npu-sim run --no-capture``);
* replayed: the calls captured once (``PreparedProgram.capture``,
  aclmdlRICaptureBegin/End), each inference one ``aclmdlRIExecuteAsync`` (one host
  launch, ``acl_runtime.capture``).

Printed per inference: host time (the simulated host clock's busy time, i.e. the
spans it charged, not the time it spent blocked on the device), host launch spans,
and the simulated device latency between the events; then the eager / replayed
ratios. Timing-only session (no numbers computed), so a hundred ResNet-50
inferences take seconds. Costs: ``acl_runtime.host_clock.HOST_COST_NS``.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
from rich.console import Console
from rich.table import Table

from acl_runtime import acl
from acl_runtime import profiler
from acl_runtime.runtime import runtime
from frontend.model_zoo import light_model_path
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner

CHIP = "ascend910b2"
BLOCKED = "blocked (waiting for the device)"


def _measure(runner, feeds, n: int) -> dict:
    """Run ``n`` inferences; per-inference host busy ns, host launch spans, device ns."""
    host = runtime().profiler.host
    before = len(host.spans)
    dev_ns = []
    t0 = time.perf_counter()
    for _ in range(n):
        dev_ns.append(runner.run(feeds).device_ns)
    wall = time.perf_counter() - t0
    spans = host.spans[before:]
    busy = sum(s.dur_ns for s in spans if s.name != BLOCKED)
    launches = sum(1 for s in spans if s.flow_out and s.name.startswith(("aclnn", "aclmdlRI")))
    return {"host_ns": busy / n, "launches": launches / n, "device_ns": float(np.mean(dev_ns)), "wall_s": wall / n}


def run(n: int, chip: str = CHIP) -> tuple[dict, dict, int]:
    """(eager, replayed, kernels per inference) for light ResNet-50 over ``n`` inferences each."""
    acl.init(chip=chip, timing_only=True)
    acl.rt.set_device(0)
    try:
        profiler.set_level("kernels")
        runner = ModelRunner(load_onnx(light_model_path("light_resnet50.onnx")), mode="graph", memory="planned")
        runner.prepare()
        feeds = {name: np.zeros(shape, dtype) for name, (shape, dtype) in runner.graph.inputs.items()}
        eager = _measure(runner, feeds, n)
        runner.program.capture()
        replayed = _measure(runner, feeds, n)
        return eager, replayed, sum(c.kernel_count for c in runner.calls)
    finally:
        acl.finalize()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="10 inferences each instead of 100")
    ap.add_argument("--inferences", type=int, default=100)
    ap.add_argument("--chip", default=CHIP)
    args = ap.parse_args(argv)
    n = 10 if args.quick else args.inferences
    eager, replayed, kernels = run(n, args.chip)
    t = Table(title=f"light ResNet-50 on {args.chip}, {kernels} kernels, {n} inferences each (per inference)",
              title_justify="left")
    for c in ("mode", "host us", "host launches", "device us", "wall ms (simulator)"):
        t.add_column(c, justify="left" if c == "mode" else "right")
    for name, r in (("eager (--no-capture)", eager), ("replayed (aclmdlRIExecuteAsync)", replayed)):
        t.add_row(name, f"{r['host_ns'] / 1e3:,.1f}", f"{r['launches']:,.0f}", f"{r['device_ns'] / 1e3:,.1f}",
                  f"{r['wall_s'] * 1e3:,.1f}")
    t.add_row("eager / replayed", f"{eager['host_ns'] / replayed['host_ns']:,.1f}x",
              f"{eager['launches'] / max(replayed['launches'], 1):,.0f}x",
              f"{eager['device_ns'] / replayed['device_ns']:,.2f}x", f"{eager['wall_s'] / replayed['wall_s']:,.2f}x")
    Console(width=150).print(t)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
