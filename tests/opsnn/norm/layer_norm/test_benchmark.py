"""Smoke test of benchmarks/layer_norm.py: the script runs and reports (no timing claims)."""
from benchmarks import layer_norm as bench


def test_layer_norm_benchmark_runs_on_tiny(capsys):
    assert bench.main(["--quick", "--rows", "3", "--chip", "tiny", "--dtype", "float32"]) == 0
    out = capsys.readouterr().out
    assert "LayerNorm [3, d] float32" in out and "d_max =" in out
    assert "does not fit" in out  # the tiny chip's 16 KiB UB forces multi-pass on long rows


def test_fused_d_max_matches_the_plan():
    assert bench.fused_d_max("ascend910b2", 2048, bench.DTYPES["float16"]) == 8176
