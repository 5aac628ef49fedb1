"""benchmarks/fidelity.py: the summary line's formulas, and a copy row against the
sustained-bandwidth formula (not against a number copied from a run)."""
from __future__ import annotations

import math

import pytest

from benchmarks import fidelity
from npu_sim import get_chip


def test_summary_is_geometric_mean_error_and_worst_row():
    rows = [fidelity.Row("a", "a", 100.0, "MM", 110.0), fidelity.Row("b", "b", 100.0, "MM", 80.0)]
    gm, worst = fidelity.summary(rows)
    assert gm == pytest.approx(math.exp((abs(math.log(1.1)) + abs(math.log(0.8))) / 2) - 1)
    assert worst.key == "b" and not worst.within and rows[0].within


def test_every_note_names_a_workload_and_every_row_a_source():
    keys = {k for k, *_ in fidelity.WORKLOADS}
    assert set(fidelity.NOTES) <= keys
    assert all(src in fidelity.SOURCES for *_, src in fidelity.WORKLOADS)


def test_copy_row_follows_the_sustained_bandwidth_formula():
    """D2D copy = dma_latency + 2 x bytes / min(peak, ddr_rate x AI Cores x clock)."""
    chip = get_chip("ascend910b2")
    [row] = fidelity.run("ascend910b2", {"copy_128"})
    rate = min(chip.hbm_bandwidth_bytes_per_ns, chip.ddr_bytes_per_cycle * chip.aic_count * chip.clock_hz / 1e9)
    assert row.sim_us * 1e3 == pytest.approx(chip.dma_latency_ns + 2 * 128 * 2 ** 20 / rate, rel=1e-9)
