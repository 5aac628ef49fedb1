"""Graph mode against eager mode: ``python -m benchmarks.graph_vs_eager [--quick]
[--chip NAME] [--json FILE]``.

For every light model the onnx package ships and MiniLM (paraphrase-MiniLM-L3-v2,
batch 2 x 16 tokens, when the ``models`` extra is installed), the model is prepared
and run once in each mode (:class:`frontend.runner.ModelRunner`, ``mode="eager"``:
one aclnn kernel per node; ``mode="graph"``: the :mod:`frontend.passes` rewrites
first). The device runs timing-only (``acl.init(timing_only=True)``: same simulated
times, no data), so the whole table takes about a minute. Per mode:

* kernels: kernels launched (trace records);
* latency: simulated us between the start and end events on the stream;
* HBM: MiB that reached HBM (``hbm_bytes`` of every kernel; L2 hits excluded);
* floor: the roofline floor of the kernels the mode launches, sum over kernels of
  max(FLOPs / cube peak for the kernel's dtype, HBM bytes / HBM bandwidth)
  (``ChipConfig.peak_flops``, ``hbm_bandwidth_bytes_per_ns``; HBM, not useful GM
  bytes, since L2 hits do not cost HBM time), in us, and the latency's multiple of
  it. Graph mode lowers the floor too (fewer bytes), so compare latencies with the
  graph-mode floor.

The ratio columns are eager / graph. On 910B2 (this release): light ResNet-50
175 -> 73 kernels, 951 -> 516 us (5.3x -> 2.9x its graph-mode floor of 178 us), HBM
404 -> 246 MiB; MiniLM-L3 (2 x 16) 81 -> 50 kernels, 326 -> 203 us. What remains
between graph mode and its floor: kernel launch and block dispatch (``kernel_launch_ns``, ``block_dispatch_ns``)
per kernel, the DMA latency of small tiles, and the layout work this release does not
model yet (TransData to NC1HWC0, see the README).
"""
from __future__ import annotations

import argparse
import json
import sys

import numpy as np
from rich.console import Console
from rich.table import Table

from acl_runtime import acl
from acl_runtime.runtime import runtime
from frontend import profiling
from frontend.model_zoo import light_model_path, light_models, minilm_model_path
from frontend.onnx_import import load_onnx
from frontend.runner import ModelRunner
from npu_sim import get_chip

QUICK = ["light_resnet50"]
MODES = ("eager", "graph")


def _feeds(graph) -> dict[str, np.ndarray]:
    return {name: np.zeros(shape, dtype) for name, (shape, dtype) in graph.inputs.items()}


def _measure(chip_name: str, graph, mode: str) -> dict:
    """One prepared run of ``graph`` in ``mode``: kernels, latency (us), HBM MiB,
    roofline floor (us)."""
    rt = runtime()
    if rt.initialized:
        acl.finalize()
    if acl.init(chip=chip_name, timing_only=True) != 0 or acl.rt.set_device(0) != 0:
        raise RuntimeError(acl.get_recent_err_msg())
    chip = get_chip(chip_name)
    try:
        runner = ModelRunner(graph, mode=mode)
        runner.prepare()
        since = len(profiling.kernel_records())
        res = runner.run(_feeds(graph))
        recs = profiling.kernel_records(since)
    finally:
        acl.finalize()
    bw = chip.hbm_bandwidth_bytes_per_ns
    floor_ns = 0.0
    for r in recs:
        dt = r.get("dtype") if r.get("dtype") in ("float16", "bfloat16", "float32", "int8") else "float16"
        floor_ns = floor_ns + max(r.get("flops", 0) / chip.peak_flops(dt) * 1e9, r.get("hbm_bytes", 0) / bw)
    return {"kernels": len(recs), "latency_us": res.device_ns / 1e3,
            "hbm_mib": sum(r.get("hbm_bytes", 0) for r in recs) / 2**20, "floor_us": floor_ns / 1e3}


def _models(quick: bool) -> list[tuple[str, object]]:
    out = [(m, load_onnx(light_model_path(m + ".onnx"))) for m in (QUICK if quick else light_models())]
    p = minilm_model_path()
    if p is not None:
        r = np.random.default_rng(0)
        feeds = {"input_ids": r.integers(1000, 9000, (2, 16)), "attention_mask": np.ones((2, 16), np.int64)}
        g = load_onnx(p, overrides=feeds)
        out.append(("MiniLM-L3 (2x16)", g))
    return out


def run(chip_name: str = "ascend910b2", quick: bool = False) -> list[dict]:
    """One row per model: name and, per mode, the :func:`_measure` figures."""
    rows = []
    for name, graph in _models(quick):
        rows.append({"model": name, **{mode: _measure(chip_name, graph, mode) for mode in MODES}})
    return rows


def table(rows: list[dict], chip_name: str) -> Table:
    t = Table(title=f"graph vs eager mode on {chip_name} (ratio = eager / graph; x floor = latency / roofline "
                    "floor)", title_justify="left")
    for c in ("model", "kernels e/g", "ratio", "latency us e/g", "ratio", "HBM MiB e/g", "ratio", "floor us",
              "x graph floor e/g"):
        t.add_column(c, justify="left" if c == "model" else "right")
    for r in rows:
        e, g = r["eager"], r["graph"]
        t.add_row(r["model"], f"{e['kernels']} / {g['kernels']}", f"{e['kernels'] / g['kernels']:.2f}",
                  f"{e['latency_us']:,.1f} / {g['latency_us']:,.1f}", f"{e['latency_us'] / g['latency_us']:.2f}",
                  f"{e['hbm_mib']:,.1f} / {g['hbm_mib']:,.1f}", f"{e['hbm_mib'] / max(g['hbm_mib'], 1e-9):.2f}",
                  f"{g['floor_us']:,.1f}",
                  f"{e['latency_us'] / g['floor_us']:.1f} / {g['latency_us'] / g['floor_us']:.1f}")
    return t


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.graph_vs_eager", description=__doc__.split("\n\n")[0])
    ap.add_argument("--chip", default="ascend910b2")
    ap.add_argument("--quick", action="store_true", help="light ResNet-50 and MiniLM only")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    a = ap.parse_args(argv)
    rows = run(a.chip, a.quick)
    Console(width=160).print(table(rows, a.chip))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
