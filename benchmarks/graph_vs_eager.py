"""Graph mode against eager mode: ``python -m benchmarks.graph_vs_eager [--quick]
[--chip NAME] [--json FILE]``.

For every light model the onnx package ships, MiniLM (paraphrase-MiniLM-L3-v2, batch
2 x 16 tokens, when the ``models`` extra is installed) and the encoder workload (one
BERT-base layer, batch 1 x 128 tokens, fp16, as the ONNX graph an exporter emits:
:func:`frontend.workloads.encoder_onnx.encoder_layer_onnx`; the workload builder itself
calls aclnn directly and has no graph mode), the model is prepared and run once in each
mode (:class:`frontend.runner.ModelRunner`, ``mode="eager"``: one aclnn kernel per node;
``mode="graph"``: the :mod:`frontend.passes` rewrites first). The device runs
timing-only (``acl.init(timing_only=True)``: same simulated times, no data). Per mode:

* kernels: kernels launched (trace records);
* latency: simulated us between the start and end events on the stream;
* HBM: MiB that reached HBM (``hbm_bytes`` of every kernel; L2 hits excluded);
* floor: the roofline floor of the kernels the mode launches, sum over kernels of
  max(FLOPs / cube peak for the kernel's dtype, HBM bytes / HBM bandwidth)
  (``ChipConfig.peak_flops``, ``hbm_bandwidth_bytes_per_ns``; HBM, not useful GM
  bytes, since L2 hits do not cost HBM time), in us, and the latency's multiple of
  it. Graph mode lowers the floor too (fewer bytes), so compare latencies with the
  graph-mode floor.

The ratio columns are eager / graph. Below the table, a caption for light ResNet-50 says
how close graph mode is to its floor and where the rest goes (:func:`why_caption`).
On 910B2 (this release): light ResNet-50 334 -> 61 kernels (175 aclnn calls plus 159
TransData in eager mode), 1,603 -> 456 us (12.2x -> 3.5x its graph-mode floor of 131
us), HBM 338 -> 146 MiB; of the 325 us above the floor, 189 us is per-kernel launch and
block dispatch (61 x 3.1 us), 130 us the convolutions' work above their own floor;
MiniLM-L3 (2 x 16) 81 -> 50 kernels, 326 -> 203 us; the BERT-base encoder layer 22 -> 12
kernels, 102 -> 62 us. Graph-mode ResNet-50's 61 kernels are 53 FusedConvolution (the
16 residual Sum+Relu ride in the epilogue of each bottleneck's last convolution, FixPipe
adding the second GM operand), 4 TransData and MaxPool, AvgPool2d, Addmm, Softmax.
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
from frontend.workloads import PRESETS
from frontend.workloads.encoder_onnx import encoder_layer_onnx
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
    by_kernel: dict[str, list[float]] = {}
    for r in recs:
        dt = r.get("dtype") if r.get("dtype") in ("float16", "bfloat16", "float32", "int8") else "float16"
        one = max(r.get("flops", 0) / chip.peak_flops(dt) * 1e9, r.get("hbm_bytes", 0) / bw)
        floor_ns = floor_ns + one
        k = by_kernel.setdefault(r["name"], [0, 0.0, 0.0])
        k[0], k[1], k[2] = k[0] + 1, k[1] + r.get("dur_ns", 0.0) / 1e3, k[2] + one / 1e3
    return {"kernels": len(recs), "latency_us": res.device_ns / 1e3,
            "hbm_mib": sum(r.get("hbm_bytes", 0) for r in recs) / 2**20, "floor_us": floor_ns / 1e3,
            "busy_us": sum(r.get("dur_ns", 0.0) for r in recs) / 1e3, "by_kernel": by_kernel}


def _models(quick: bool) -> list[tuple[str, object]]:
    out = [(m, load_onnx(light_model_path(m + ".onnx"))) for m in (QUICK if quick else light_models())]
    p = minilm_model_path()
    if p is not None:
        r = np.random.default_rng(0)
        feeds = {"input_ids": r.integers(1000, 9000, (2, 16)), "attention_mask": np.ones((2, 16), np.int64)}
        g = load_onnx(p, overrides=feeds)
        out.append(("MiniLM-L3 (2x16)", g))
    out.append(("BERT-base encoder layer (1x128 fp16)", load_onnx(encoder_layer_onnx(PRESETS["bert-base"]))))
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


#: what keeps a kernel type above its floor in the ResNet-50 caption
_WHY = {"FusedConvolution": "tiles that keep the fp32 Cube below peak, MTE2 loads not hidden behind the MACs",
        "FusedElementwise": "pointwise chains left as vector kernels, each streaming its operands through HBM"}


def why_caption(row: dict, chip_name: str) -> str:
    """How close ``row``'s graph mode is to its roofline floor and where the rest goes:
    per-kernel launch and block dispatch (``kernel_launch_ns`` + ``block_dispatch_ns``,
    an assumed figure, see ``npu_sim/chips/presets.py``), then each kernel type's time
    above its own floor net of that overhead (largest first)."""
    chip = get_chip(chip_name)
    e, g = row["eager"], row["graph"]
    per_us = (chip.kernel_launch_ns + chip.block_dispatch_ns) / 1e3
    launch = g["kernels"] * per_us
    excess = g["latency_us"] - g["floor_us"]
    parts = sorted(((name, n, dur - fl - n * per_us) for name, (n, dur, fl) in g["by_kernel"].items()),
                   key=lambda p: -p[2])
    work = ", ".join(f"{n} {name} {x:,.0f} us" + (f" ({_WHY[name]})" if name in _WHY else "")
                     for name, n, x in parts[:2])
    rest = sum(x for _, _, x in parts[2:])
    return (f"{row['model']}, graph mode: {g['latency_us']:,.0f} us = {g['latency_us'] / g['floor_us']:.1f}x its "
            f"roofline floor of {g['floor_us']:,.0f} us (eager {e['latency_us'] / g['floor_us']:.1f}x; "
            f"{e['kernels']} -> {g['kernels']} kernels). Of the {excess:,.0f} us above the floor, {launch:,.0f} us "
            f"is kernel launch and block dispatch ({g['kernels']} x {per_us:.1f} us), the rest is kernels' work "
            f"above their own floor: {work}, others {rest:,.0f} us. TransData (NC1HWC0 / FRACTAL_Z): "
            f"{e['by_kernel'].get('TransData', (0,))[0]} kernels in eager mode (each aclnnConvolution converts its "
            f"input, weight and output), {g['by_kernel'].get('TransData', (0,))[0]} in graph mode (keep_nc1hwc0: "
            f"only where 5-D data meets an op that needs NCHW).")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.graph_vs_eager", description=__doc__.split("\n\n")[0])
    ap.add_argument("--chip", default="ascend910b2")
    ap.add_argument("--quick", action="store_true", help="light ResNet-50, MiniLM and the encoder layer only")
    ap.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    a = ap.parse_args(argv)
    rows = run(a.chip, a.quick)
    console = Console(width=160)
    console.print(table(rows, a.chip))
    for r in rows:
        if r["model"] == "light_resnet50":
            console.print(why_caption(r, a.chip), highlight=False)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
