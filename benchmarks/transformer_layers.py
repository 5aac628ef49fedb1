"""Simulated latency of the built-in transformer workloads (frontend/workloads/).

    python benchmarks/transformer_layers.py [--chips ascend910b2,ascend910b4]

Timing-only sessions (no numbers): a BERT-base encoder layer over batch x sequence
sizes and a LLaMA-7B-class decoder step over KV-cache lengths, per chip, with the
share of the layer spent in attention and the effective weight bandwidth of the
decode step (weight bytes / latency, to compare with the chip's HBM figure). These
are outputs of npu-sim's cost model (docs/timing.md), not hardware measurements.
"""
from __future__ import annotations

import argparse

from frontend.workloads import PRESETS, simulate

ENCODER_SIZES = [(1, 128), (8, 128), (1, 512), (8, 512)]
CACHE_LENS = [128, 1024, 4096]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--chips", default="ascend910b2,ascend910b4")
    args = p.parse_args(argv)
    from npu_sim import get_chip
    from rich.console import Console
    from rich.table import Table
    console = Console()
    chips = [c.strip() for c in args.chips.split(",")]
    enc = Table(title="BERT-base encoder layer (fp16), simulated", title_justify="left")
    for c in ("chip", "batch", "seq", "latency us", "attention share", "tokens/ms"):
        enc.add_column(c, justify="right")
    for chip in chips:
        for b, s in ENCODER_SIZES:
            r = simulate("encoder", "bert-base", chip=chip, batch=b, seq=s)
            att = sum(o.device_ns for o in r.ops if o.label == "attention") / max(sum(o.device_ns for o in r.ops), 1)
            enc.add_row(chip, str(b), str(s), f"{r.latency_ns / 1e3:,.1f}", f"{att:.0%}",
                        f"{b * s / (r.latency_ns / 1e6):,.0f}")
    console.print(enc)
    cfg = PRESETS["llama-7b"]
    weight_bytes = 2 * (4 * cfg.hidden * cfg.hidden + 3 * cfg.hidden * cfg.ffn)
    dec = Table(title="LLaMA-7B-class decoder step (fp16, batch 1), simulated", title_justify="left")
    for c in ("chip", "cache len", "latency us", "attention share", "weights GB/s", "HBM GB/s (chip)"):
        dec.add_column(c, justify="right")
    for chip in chips:
        hbm = get_chip(chip).hbm_bandwidth_bytes_per_ns
        for n in CACHE_LENS:
            r = simulate("decoder", "llama-7b", chip=chip, batch=1, cache_len=n)
            att = sum(o.device_ns for o in r.ops if o.label == "attention") / max(sum(o.device_ns for o in r.ops), 1)
            dec.add_row(chip, str(n), f"{r.latency_ns / 1e3:,.1f}", f"{att:.0%}",
                        f"{weight_bytes / r.latency_ns:,.0f}", f"{hbm:,.0f}")
    console.print(dec)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
