"""Smoke test of benchmarks/roofline.py on the tiny chip: it measures, tabulates and
(without matplotlib) skips the plot without failing. Timing claims live in the
benchmark's own output, not here."""
from __future__ import annotations

import pytest
from rich.console import Console

from benchmarks import roofline
from npu_sim.chips.presets import TINY


def test_sweep_runs_and_reports():
    cases = roofline.run("tiny", [64, 256], [1024, 1 << 20], progress=False)
    assert [(c.op, c.dtype, c.size) for c in cases] == [
        ("Matmul", "float16", "64^3"), ("Matmul", "float16", "256^3"), ("Matmul", "float32", "64^3"),
        ("Matmul", "float32", "256^3"), ("Add", "float32", "1 KiB"), ("Add", "float32", "1 MiB")]
    for c in cases:
        assert c.us > 0 and c.bound in ("compute", "memory", "latency")
        assert c.tflops == pytest.approx(c.flops / (c.us * 1e-6) / 1e12)
        assert c.gb_per_s == pytest.approx(c.bytes / (c.us * 1e-6) / 1e9)
        assert c.tflops <= c.attainable_tflops * 1.0001      # never above the roofline
    mm = cases[1]
    assert mm.flops == 2 * 256 ** 3 and mm.bytes == 3 * 256 * 256 * 2
    assert mm.peak_tflops == pytest.approx(TINY.peak_flops("float16") / 1e12)
    console = Console(record=True, width=200)
    console.print(roofline.table(cases, "t"))
    text = console.export_text()
    assert "% cube peak" in text and "% HBM" in text and "256^3" in text


def test_plot_without_matplotlib_is_skipped(tmp_path, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_mpl(name, *a, **k):
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_mpl)
    assert roofline.plot([], TINY, str(tmp_path / "x.png")) is False
    assert not (tmp_path / "x.png").exists()
