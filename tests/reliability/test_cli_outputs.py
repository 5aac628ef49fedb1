"""npu-sim outputs: refused when they are an input, checked early, written atomically,
and a full disk gives one line while the summary still prints. Errors go to stderr."""
from __future__ import annotations

import builtins
import errno
import json

import numpy as np
import pytest

FLAGS = ("--chip", "tiny", "--no-progress")


def test_trace_onto_the_model_is_refused(run_cli, relu):
    before = relu.read_bytes()
    code, out, err = run_cli("run", relu, "--trace", relu, *FLAGS)
    assert code == 2 and "one of the inputs" in err and "Traceback" not in err + out
    assert relu.read_bytes() == before


def test_trace_onto_the_inputs_is_refused(run_cli, relu, tmp_path):
    npz = tmp_path / "in.npz"
    np.savez(npz, x=np.ones((2, 3), np.float32))
    before = npz.read_bytes()
    code, _, err = run_cli("run", relu, "--inputs", npz, "--trace", npz, *FLAGS)
    assert code == 2 and "one of the inputs" in err and npz.read_bytes() == before


def test_unwritable_trace_path_fails_before_the_run(run_cli, relu):
    code, out, err = run_cli("run", relu, "--trace", "/proc/x.json", *FLAGS)
    assert code == 2 and "/proc/x.json" in err and "simulated latency" not in out


def test_full_disk_keeps_old_trace_and_prints_summary(run_cli, relu, tmp_path, monkeypatch):
    trace = tmp_path / "t.json"
    trace.write_text('{"old": true}')
    real_open = builtins.open

    def full_disk_open(file, mode="r", *a, **k):
        if ".tmp" in str(file) and any(c in mode for c in "wa"):
            raise OSError(errno.ENOSPC, "No space left on device", str(file))
        return real_open(file, mode, *a, **k)

    monkeypatch.setattr(builtins, "open", full_disk_open)
    code, out, err = run_cli("run", relu, "--trace", trace, *FLAGS)
    monkeypatch.setattr(builtins, "open", real_open)
    assert code == 1
    assert "simulated latency" in out                       # the summary still printed
    assert "No space left on device" in err and "Traceback" not in err + out
    assert len([line for line in err.splitlines() if "error" in line]) == 1
    assert json.loads(trace.read_text()) == {"old": True}   # the previous trace is untouched
    assert [p.name for p in tmp_path.iterdir() if ".tmp" in p.name] == []


def test_save_outputs_full_disk(run_cli, relu, tmp_path, monkeypatch):
    out_dir = tmp_path / "outs"
    out_dir.mkdir()
    (out_dir / "y.npy").write_bytes(b"old")
    real_open = builtins.open

    def full_disk_open(file, mode="r", *a, **k):
        if ".tmp" in str(file) and "w" in mode:
            raise OSError(errno.ENOSPC, "No space left on device", str(file))
        return real_open(file, mode, *a, **k)

    monkeypatch.setattr(builtins, "open", full_disk_open)
    code, out, err = run_cli("run", relu, "--trace", "", "--save-outputs", out_dir, *FLAGS)
    monkeypatch.setattr(builtins, "open", real_open)
    assert code == 1 and "simulated latency" in out and "No space left" in err
    assert (out_dir / "y.npy").read_bytes() == b"old"


def test_outputs_and_trace_written_whole(run_cli, relu, tmp_path):
    trace, out_dir = tmp_path / "t.json", tmp_path / "o"
    code, out, err = run_cli("run", relu, "--trace", trace, "--save-outputs", out_dir, *FLAGS)
    assert code == 0, err
    assert json.loads(trace.read_text())["traceEvents"]
    assert np.load(out_dir / "y.npy").shape == (2, 3)
    assert [p.name for p in tmp_path.rglob("*") if ".tmp" in p.name] == []


def test_reweight_refuses_its_input_and_writes_atomically(run_cli, relu, tmp_path):
    before = relu.read_bytes()
    code, _, err = run_cli("reweight", relu, relu)
    assert code == 2 and "one of the inputs" in err and relu.read_bytes() == before
    out = tmp_path / "rw.onnx"
    code, _, err = run_cli("reweight", relu, out)
    assert code == 0, err
    import onnx
    onnx.load(str(out))


def test_errors_go_to_stderr(run_cli):
    code, out, err = run_cli("run", "no_such_model.onnx")
    assert code == 2 and out == "" and "no_such_model.onnx" in err


@pytest.mark.parametrize("prog", ["npu-sim", "npu-trace"])
def test_version(prog, capsys):
    from frontend.cli import main as sim_main
    from traces.cli import main as trace_main
    try:
        code = (sim_main if prog == "npu-sim" else trace_main)(["--version"])
    except SystemExit as e:
        code = e.code
    assert code == 0
    assert capsys.readouterr().out.startswith(prog + " ")
