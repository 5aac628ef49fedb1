"""`npu-sim run` estimates the trace size from the span count before writing it, and
warns (naming the lighter trace levels) when the estimate is over the threshold."""
from __future__ import annotations

import pytest

from tests.reliability.conftest import relu_model

FLAGS = ("--chip", "tiny", "--no-progress")


@pytest.mark.parametrize("level", ["pipes", "kernels"])
def test_large_trace_warns_with_the_estimate(run_cli, tmp_path, monkeypatch, level):
    import frontend.cli.run as run_mod
    monkeypatch.setattr(run_mod, "TRACE_WARN_BYTES", 0)
    model = relu_model(tmp_path / "m.onnx", shape=(64, 1024))
    trace = tmp_path / "t.json"
    code, out, err = run_cli("run", model, "--trace", trace, "--trace-level", level, *FLAGS)
    assert code == 0 and trace.exists()
    assert "the trace will be about" in out and f"level {level}" in out
    others = [lv for lv in ("kernels", "off") if lv != level]
    assert all(f"--trace-level {lv}" in out for lv in others)


def test_small_trace_does_not_warn(run_cli, relu, tmp_path):
    code, out, _ = run_cli("run", relu, "--trace", tmp_path / "t.json", *FLAGS)
    assert code == 0 and "the trace will be about" not in out


def test_estimate_is_close_to_the_written_size(tmp_path):
    """The estimate from span counts is within 35% of the bytes written (a small
    model: per-event means come from larger runs, so the margin is wide)."""
    from acl_runtime import profiler
    from frontend.cli import main
    import frontend.cli.run as run_mod
    seen = {}
    real = run_mod._warn_trace_size

    def spy(console, level):
        seen["est"] = profiler.estimate_trace_bytes()
        real(console, level)
    run_mod._warn_trace_size = spy
    try:
        model = relu_model(tmp_path / "m.onnx", shape=(64, 4096))
        trace = tmp_path / "t.json"
        assert main(["run", str(model), "--trace", str(trace), *FLAGS]) == 0
    finally:
        run_mod._warn_trace_size = real
    est, spans = seen["est"]
    size = trace.stat().st_size
    assert spans > 10 and 0.65 * size < est < 1.35 * size, (est, size)
