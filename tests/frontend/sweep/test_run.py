"""run_sweep: determinism (two runs; jobs 1 against jobs 2), timing-only against full
mode, the cache, and resuming after a real SIGINT."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from frontend.sweep import Experiment, run_sweep
from frontend.sweep.point import run_point
from frontend.sweep.report import records
from npu_sim import get_chip

ROOT = Path(__file__).resolve().parents[3]

SMALL = {
    "name": "small",
    "chip": "tiny",
    "axes": {"hbm_bandwidth_bytes_per_ns": [25, 100]},
    "zipped": [{"aic_count": [1, 2], "aiv_count": [2, 4]}],
    "workloads": [{"op": "softmax", "shapes": [[64, 512]]}, {"op": "matmul", "shapes": [[128, 256], [256, 128]]},
                  {"transformer": "encoder", "preset": "bert-base", "batch": 1, "seq": 16}],
}


def _numbers(tab):
    """Rows without the cached flag, NaN (pandas' None) as None so rows compare equal."""
    return [{k: (None if isinstance(v, float) and v != v else v) for k, v in r.items() if k != "cached"}
            for r in records(tab)]


def test_two_runs_and_jobs_1_vs_2_identical(tmp_path):
    exp = Experiment.from_dict(SMALL)
    a = _numbers(run_sweep(exp, tmp_path / "a", jobs=1, progress=False))
    b = _numbers(run_sweep(exp, None, jobs=1, progress=False))
    c = _numbers(run_sweep(exp, tmp_path / "c", jobs=2, progress=False))
    assert len(a) == 4 * 3
    assert a == b == c
    ja = json.loads((tmp_path / "a" / "results.json").read_text())
    jc = json.loads((tmp_path / "c" / "results.json").read_text())
    assert [p["result"] for p in ja["points"]] == [p["result"] for p in jc["points"]]
    assert ja["points"][0]["chip"]["name"] == "tiny" and ja["points"][0]["chip"]["aic_count"] == 1
    # the physics the sweep should show: more bandwidth, not slower
    lat = {(r["workload"], r["hbm_bandwidth_bytes_per_ns"], r["aic_count"]): r["latency_ns"] for r in a}
    for (w, bw, n), v in lat.items():
        if bw == 25:
            assert lat[(w, 100, n)] <= v


def test_cache_hits_on_rerun_and_extension(tmp_path):
    exp = Experiment.from_dict(SMALL)
    first = records(run_sweep(exp, tmp_path, progress=False))
    again = records(run_sweep(exp, tmp_path, progress=False))
    assert not any(r["cached"] for r in first) and all(r["cached"] for r in again)
    assert _numbers(first) == _numbers(again)
    bigger = dict(SMALL, axes={"hbm_bandwidth_bytes_per_ns": [25, 100, 400]})
    ext = records(run_sweep(Experiment.from_dict(bigger), tmp_path, progress=False))
    assert sum(not r["cached"] for r in ext) == 2 * 3        # only the new bandwidth's points ran
    meta = json.loads((tmp_path / "results.json").read_text())
    assert (meta["ran"], meta["cached"]) == (6, 12)
    assert (tmp_path / "results.csv").read_text().count("\n") == 1 + 18


@pytest.mark.parametrize("workload", [{"op": "matmul", "shapes": [[96, 64], [64, 80]]},
                                      {"op": "layernorm", "shapes": [[32, 320]], "dtype": "float32"},
                                      {"op": "softmax", "shapes": [[16, 1000]]},
                                      {"model": "light_squeezenet"}])
def test_timing_only_equals_full_mode(workload):
    chip = get_chip("tiny").model_dump(mode="json")
    fast = run_point(chip, workload, timing_only=True)
    full = run_point(chip, workload, timing_only=False)
    assert fast["latency_ns"] == full["latency_ns"]
    assert [o["device_ns"] for o in fast["ops"]] == [o["device_ns"] for o in full["ops"]]
    assert fast == full


def test_timing_only_layer_equals_full_mode():
    """The built-in layer skips its weight uploads when timing-only, so its kernels start
    at another absolute device time; each kernel's duration is the same, and the
    event-timed latency agrees to float rounding of (end - start)."""
    chip = get_chip("tiny").model_dump(mode="json")
    wl = {"transformer": "encoder", "preset": "bert-base", "batch": 1, "seq": 16}
    fast, full = run_point(chip, wl, True), run_point(chip, wl, False)
    assert fast["latency_ns"] == pytest.approx(full["latency_ns"], rel=1e-12)
    assert [o["device_ns"] for o in fast["ops"]] == pytest.approx([o["device_ns"] for o in full["ops"]], rel=1e-12)
    assert fast["hbm_bytes"] == full["hbm_bytes"] and fast["kernels"] == full["kernels"]


SLOW = """
name: slow
chip: tiny
axes:
  hbm_bandwidth_bytes_per_ns: [20, 30, 40, 50, 60, 70, 80, 90]
workloads:
  - model: light_squeezenet
"""


def test_resume_after_sigint(tmp_path):
    exp_file = tmp_path / "slow.yaml"
    exp_file.write_text(SLOW)
    out = tmp_path / "out"
    cache = out / "cache"
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.Popen([sys.executable, "-m", "frontend.cli", "sweep", str(exp_file), "--out", str(out),
                             "--no-progress", "--no-plots"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True,
                            # an ignored SIGINT is inherited across exec (some test runners ignore it)
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.time() + 240
    while time.time() < deadline and proc.poll() is None:
        if cache.is_dir() and len(list(cache.glob("*.json"))) >= 2:
            break
        time.sleep(0.02)
    assert proc.poll() is None, "the sweep finished before it could be interrupted: " + proc.stdout.read()
    proc.send_signal(signal.SIGINT)
    text, _ = proc.communicate(timeout=120)
    assert proc.returncode == 130, text
    assert "interrupted" in text
    done_before = len(list(cache.glob("*.json")))
    assert 2 <= done_before < 8
    assert not list(cache.glob(".tmp-*"))          # no partial write left behind
    tab = records(run_sweep(Experiment.from_yaml(exp_file), out, progress=False))
    assert sum(r["cached"] for r in tab) == done_before
    meta = json.loads((out / "results.json").read_text())
    assert meta["ran"] == 8 - done_before
    fresh = records(run_sweep(Experiment.from_yaml(exp_file), None, progress=False))
    assert _numbers(tab) == _numbers(fresh)


def test_cache_key_covers_config_workload_mode_and_version():
    from frontend.sweep.cache import point_key, simulator_version
    chip = get_chip("tiny").model_dump(mode="json")
    wl = {"op": "softmax", "shapes": [[8, 8]], "dtype": "float16"}
    k = point_key(chip, wl, "eager", True)
    assert k == point_key(dict(chip), dict(wl), "eager", True)
    assert k != point_key(dict(chip, ub_bytes=chip["ub_bytes"] * 2), wl, "eager", True)
    assert k != point_key(chip, dict(wl, dtype="float32"), "eager", True)
    assert k != point_key(chip, wl, "eager", False)
    assert simulator_version().startswith("0.") and "+" in simulator_version()


IMPOSSIBLE = {"name": "impossible", "chip": "tiny", "mode": "eager",
              "axes": {"ub_bytes": [65536, 1]}, "workloads": [{"op": "layernorm", "shapes": [[64, 512]]}]}


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_point_that_cannot_run_is_named_and_earlier_points_stay_cached(tmp_path, jobs):
    """A UB of 1 B fits no LayerNorm tiling: the sweep stops with SweepPointError naming
    the point and the tiling's reason, and the 64 KiB point it finished stays cached."""
    from frontend.sweep import SweepPointError
    with pytest.raises(SweepPointError, match=r"ub_bytes=1 .*561002"):
        run_sweep(Experiment.from_dict(IMPOSSIBLE), tmp_path, jobs=jobs, progress=False)
    if jobs == 1:   # points run in order: the first finished before the failing one
        assert len(list((tmp_path / "cache").rglob("*.json"))) == 1


def test_cli_impossible_point_is_one_line(tmp_path):
    import yaml
    exp = tmp_path / "bad.yaml"
    exp.write_text(yaml.safe_dump(IMPOSSIBLE))
    p = subprocess.run([sys.executable, "-m", "frontend.cli", "sweep", str(exp), "--out", str(tmp_path / "o"),
                        "--jobs", "1", "--no-progress", "--no-plots"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode != 0
    assert "Traceback" not in p.stderr + p.stdout
    err = [ln for ln in p.stderr.splitlines() if ln.strip()]
    assert len(err) == 1 and "ub_bytes=1" in err[0] and "UB of 1 B is too small" in err[0], p.stderr
