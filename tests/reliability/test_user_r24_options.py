"""A breaker's pass over the simulator-speed options (issue 17): conflicting or bad
values of ``npu-sim run`` / ``sweep``, ``python -m frontend.workloads`` and
``benchmarks.sim_speed`` fail with one ``error`` line naming the option and a
non-zero exit, before any long work; never a traceback or a silently changed run."""
from __future__ import annotations

import pytest

from .conftest import call_main, relu_model

FLAGS = ("--chip", "tiny", "--no-progress", "--no-check")


def _one_clean_line(err: str) -> bool:
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return len(lines) == 1 and "Traceback" not in err


def test_trace_file_with_trace_level_off_is_refused(run_cli, relu, tmp_path):
    trace = tmp_path / "t.json"
    code, out, err = run_cli("run", relu, "--trace-level", "off", "--trace", trace, *FLAGS)
    assert code == 2 and "--trace-level off" in err and "--trace" in err and _one_clean_line(err)
    assert "simulated latency" not in out and not trace.exists()


def test_trace_level_off_alone_runs_and_writes_nothing(run_cli, relu, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, _ = run_cli("run", relu, "--trace-level", "off", *FLAGS)
    assert code == 0 and "(not written)" in out and list(tmp_path.iterdir()) == [relu]


def test_batch_against_a_different_dim_pin_is_refused(run_cli, tmp_path):
    model = relu_model(tmp_path / "dyn.onnx", shape=("N", 3))
    code, out, err = run_cli("run", model, "--dim", "N=2", "--batch", "4", "--trace", "", *FLAGS)
    assert code == 2 and "--batch 4" in err and "--dim N=2" in err and _one_clean_line(err)
    assert "simulated latency" not in out


def test_batch_equal_to_the_dim_pin_runs_at_that_batch(run_cli, tmp_path):
    model = relu_model(tmp_path / "dyn.onnx", shape=("N", 3))
    code, out, _ = run_cli("run", model, "--dim", "N=4", "--batch", "4", "--trace", "", *FLAGS)
    assert code == 0 and "x 4x3 float32" in out


def test_host_out_of_memory_is_one_line(run_cli, relu, monkeypatch):
    import frontend.cli as cli

    def no_memory(args, console):
        raise MemoryError("Unable to allocate 47.7 GiB for an array")
    monkeypatch.setattr(cli, "cmd_run", no_memory)
    code, _, err = run_cli("run", relu)
    assert code == 1 and "out of host memory" in err and "47.7 GiB" in err and _one_clean_line(err)


def test_sweep_jobs_not_a_number_names_the_option(capsys):
    from frontend.cli import main
    code, _, err = call_main(main, ["sweep", "x.yaml", "--jobs", "abc"], capsys)
    assert code == 2 and "--jobs" in err and "positive integer" in err and "_jobs" not in err


@pytest.mark.parametrize("argv, option", [
    (["encoder", "--batch", "0"], "--batch"),
    (["encoder", "--batch", "-2"], "--batch"),
    (["encoder", "--seq", "0"], "--seq"),
    (["decoder", "--cache-len", "-1"], "--cache-len"),
    (["encoder", "--chip", "no_such_chip"], "--chip"),
])
def test_workloads_bad_sizes_and_chip_are_refused(capsys, argv, option):
    from frontend.workloads.cli import main
    code, out, err = call_main(main, argv, capsys)
    assert code == 2 and option in err and "Traceback" not in err and "simulated" not in out


def test_workloads_out_of_device_memory_is_one_line(capsys):
    from frontend.workloads.cli import main
    # bert-base FFN activations at batch 512 x seq 128 in fp16: 512*128*3072*2 B = 384 MiB > tiny's 256 MiB HBM
    code, out, err = call_main(main, ["encoder", "--chip", "tiny", "--batch", "512"], capsys)
    assert code == 1 and "out of device memory" in err and _one_clean_line(err) and "simulated" not in out


@pytest.mark.parametrize("models, needle", [
    ("no_such_model", "'no_such_model' not found"),
    ("light_squeezenet@abc", "NAME@B,S"),
    ("light_squeezenet@2", "NAME@B,S"),
    ("light_squeezenet@0,16", "NAME@B,S"),
])
def test_sim_speed_bad_models_fail_before_any_run(capsys, monkeypatch, models, needle):
    from benchmarks import sim_speed
    monkeypatch.setattr(sim_speed, "part1", lambda *a: pytest.fail("ran part 1"))
    code, _, err = call_main(sim_speed.main, ["--models", models], capsys)
    assert code == 2 and "--models" in err and needle in err and "Traceback" not in err


def test_sim_speed_interrupt_exits_130(capsys, monkeypatch):
    from benchmarks import sim_speed

    def interrupted(*a):
        raise KeyboardInterrupt
    monkeypatch.setattr(sim_speed, "part1", interrupted)
    code, _, err = call_main(sim_speed.main, ["--models", "light_squeezenet"], capsys)
    assert code == 130 and "interrupted" in err and "Traceback" not in err


def test_sim_speed_models_only_runs_part_1_alone(capsys, monkeypatch):
    from benchmarks import sim_speed
    ran = []
    monkeypatch.setattr(sim_speed, "part1", lambda models, *a: ran.append(models))
    for later in ("import_times", "tiny_kernel", "decoder_32", "part2"):
        monkeypatch.setattr(sim_speed, later, lambda *a, _n=later: pytest.fail(f"ran {_n}"))
    code, _, err = call_main(sim_speed.main, ["--models", "light_squeezenet", "--models-only"], capsys)
    assert code == 0 and ran == [["light_squeezenet"]] and not err.strip()


def test_sim_speed_models_only_with_no_models_is_refused(capsys, monkeypatch):
    from benchmarks import sim_speed
    monkeypatch.setattr(sim_speed, "part1", lambda *a: pytest.fail("ran part 1"))
    code, _, err = call_main(sim_speed.main, ["--no-models", "--models-only"], capsys)
    assert code == 2 and "--models-only" in err and "Traceback" not in err


def test_info_names_the_symbolic_dims_that_dim_takes(run_cli, tmp_path):
    model = relu_model(tmp_path / "dyn.onnx", shape=("N", 3))
    code, out, _ = run_cli("info", model)
    assert code == 0 and "[N, 3]" in out and "--dim NAME=N" in out


def test_tol_not_a_number_names_the_option(capsys):
    from frontend.cli import main
    code, _, err = call_main(main, ["run", "--tol", "abc"], capsys)
    assert code == 2 and "--tol" in err and "positive finite number" in err and "_pos_float" not in err
