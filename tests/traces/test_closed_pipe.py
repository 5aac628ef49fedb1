"""Both CLIs on a stdout pipe whose reader is gone (``... | head``): exit 0, no
traceback, and the command still finishes (traces/console.py)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _run_closed(args: list[str], cwd) -> subprocess.CompletedProcess:
    """Run ``python -m ...args`` with stdout a pipe whose read end is closed before
    the child starts: every write to stdout meets EPIPE, as after ``head`` exits."""
    r, w = os.pipe()
    os.close(r)
    try:
        return subprocess.run([sys.executable, "-m", *args], stdout=w, stderr=subprocess.PIPE, text=True,
                              cwd=cwd, timeout=300)
    finally:
        os.close(w)


@pytest.mark.parametrize("args", [["frontend.cli", "chips"], ["traces.cli", "--help"]])
def test_closed_pipe_exits_zero(args, tmp_path):
    p = _run_closed(args, tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr


def test_summary_on_closed_pipe(acl_run, tmp_path):
    p = _run_closed(["traces.cli", "summary", str(acl_run.path)], tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr and "BrokenPipe" not in p.stderr


def test_run_finishes_on_closed_pipe(tmp_path):
    """The run goes on after its output is cut: the trace is written."""
    trace = tmp_path / "t.json"
    p = _run_closed(["frontend.cli", "run", "light_squeezenet", "--chip", "tiny", "--timing-only", "--no-progress",
                     "--trace", str(trace)], tmp_path)
    assert p.returncode == 0, p.stderr
    assert trace.stat().st_size > 0
