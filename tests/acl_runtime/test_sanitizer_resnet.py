"""The sanitizer on real programs: light ResNet-50 as four independent requests on four
streams (each request its own prepared program, planned memory and stream, all
enqueued before any synchronize) reports nothing; ``npu-sim run --sanitize`` prints
"sanitizer: no findings". Timing-only on the 910B (the tiny chip's 256 MiB HBM holds
one copy of the weights, not four), so a run takes seconds. The wall-time cost of the
sanitizer is measured by ``python -m benchmarks.streams`` (a printed row, not a test)."""
from __future__ import annotations

from acl_runtime import acl, sanitizer
from acl_runtime.runtime import runtime
from benchmarks.streams import enqueue_program
from tests.frontend.test_cli_errors import relu_model  # noqa: F401  (a fixture)


def test_light_resnet50_on_four_streams_reports_nothing(clean):
    from frontend.cli.common import load_graph, resolve_model
    from frontend.runner import ModelRunner
    acl.init(chip="ascend910b2", timing_only=True)
    try:
        acl.rt.set_device(0)
        sanitizer.enable(True)
        graph = load_graph(resolve_model("light_resnet50"))
        runners = [ModelRunner(graph, mode="graph", memory="planned") for _ in range(4)]
        for r in runners:
            r.prepare()
        streams = {r.program.stream for r in runners}
        assert len(streams) == 4
        for r in runners:
            enqueue_program(r.program)
        for st in streams:
            assert acl.rt.synchronize_stream(st) == 0
        assert sanitizer.findings() == []
        # the requests did run side by side: every stream has kernels, and they overlap in time
        recs = runtime().device.kernel_records
        spans = {}
        for r in recs:
            lo, hi = spans.get(r["stream"], (float("inf"), 0.0))
            spans[r["stream"]] = (min(lo, r["start_ns"]), max(hi, r["start_ns"] + r["dur_ns"]))
        assert len(spans) == 4
        (a0, a1), (b0, b1) = sorted(spans.values())[:2]
        assert b0 < a1
    finally:
        acl.finalize()


def test_cli_run_sanitize_prints_no_findings(clean, relu_model, capsys, tmp_path):
    from frontend.cli import main
    rc = main(["run", str(relu_model), "--chip", "tiny", "--sanitize", "--no-progress", "--trace-level", "off"])
    out = capsys.readouterr().out
    assert rc == 0 and "sanitizer: no findings" in out
    rc = main(["run", str(relu_model), "--chip", "tiny", "--no-progress", "--trace-level", "off"])
    assert rc == 0 and "sanitizer" not in capsys.readouterr().out
