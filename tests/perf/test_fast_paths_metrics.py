"""``npu_sim.metrics.kernel_metrics`` (table-driven loops) equals the plain formulas
of its docstring, bit for bit, on random counters (ties, zero durations, unused
core types and pipes included)."""
from __future__ import annotations

import random

from npu_sim.chips.presets import TINY
from npu_sim.metrics import COMPUTE_PIPES, COPY_PIPES, PIPE_UNITS, RATIO_NAMES, classify, kernel_metrics


def _plain(chip, T, busy, fixed, core_ns, used, flops, gm, hbm, l2):
    ratios = {}
    for pipe, name in RATIO_NAMES.items():
        d = sum(core_ns.get(u, 0.0) for u in PIPE_UNITS[pipe])
        ratios[name] = min(busy.get(pipe, 0.0) / d, 1.0) if d > 0 else 0.0
    util = {}
    for pipe in (p for p in PIPE_UNITS if p != "SCALAR"):
        c = sum(used.get(u, 0) for u in PIPE_UNITS[pipe])
        util[pipe] = (busy.get(pipe, 0.0) - fixed.get(pipe, 0.0)) / (T * c) if T and c else 0.0
    util["HBM"] = hbm / (T * chip.hbm_bandwidth_bytes_per_ns) if T else 0.0
    util["L2"] = l2 / (T * chip.l2_bandwidth_bytes_per_ns) if T else 0.0
    cb = max(COMPUTE_PIPES, key=lambda p: util[p])
    mb = max(COPY_PIPES + ("HBM", "L2"), key=lambda p: util[p])
    cu, mu = min(util[cb], 1.0), min(util[mb], 1.0)
    b = classify(cu, mu)
    return {"pipe_ratio": ratios, "core_ns": dict(core_ns), "flop_per_s": flops / T * 1e9 if T else 0.0,
            "gm_bytes_per_s": gm / T * 1e9 if T else 0.0, "compute_util": cu, "memory_util": mu, "bound": b,
            "bound_by": cb if b == "compute" else mb if b == "memory" else "overhead"}


def test_kernel_metrics_equals_plain_formulas():
    rng = random.Random(3)
    for _ in range(5000):
        busy = {p: rng.choice([0.0, rng.random() * 1e4, 3.0]) for p in PIPE_UNITS if rng.random() < 0.7}
        fixed = {p: v * rng.random() for p, v in busy.items() if rng.random() < 0.5}
        core = {u: rng.choice([0.0, rng.random() * 1e5, 7.0]) for u in ("AIC", "AIV") if rng.random() < 0.8}
        used = {u: rng.randint(0, 48) for u in ("AIC", "AIV") if rng.random() < 0.8}
        args = (TINY, rng.choice([0.0, rng.random() * 1e5]), busy, fixed, core, used, rng.random() * 1e9,
                rng.random() * 1e6, rng.random() * 1e6, rng.random() * 1e5)
        assert repr(kernel_metrics(*args)) == repr(_plain(*args))
