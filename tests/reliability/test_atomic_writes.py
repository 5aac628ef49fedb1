"""Trace writes are atomic: a SIGINT mid-write keeps the previous file, and two
processes writing one path leave one whole trace, never an interleaving."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

CHILD = Path(__file__).with_name("_trace_writer_child.py")
ROOT = Path(__file__).resolve().parents[2]


def _start(path, tag, pause):
    return subprocess.Popen([sys.executable, str(CHILD), str(path), tag, str(pause)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def test_sigint_mid_write_keeps_previous_trace(tmp_path):
    trace = tmp_path / "t.json"
    trace.write_text('{"previous": true}')
    p = _start(trace, "new", 0.2)
    assert p.stdout.readline().strip() == "writing"
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=120)
    assert p.returncode != 0 and "done" not in out
    assert json.loads(trace.read_text()) == {"previous": True}
    assert [q.name for q in tmp_path.iterdir()] == ["t.json"]   # no temporary file left behind


def test_two_writers_leave_one_whole_trace(tmp_path):
    trace = tmp_path / "t.json"
    a, b = _start(trace, "a", 0.01), _start(trace, "bbb", 0.01)
    for p in (a, b):
        out, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    data = json.loads(trace.read_text())            # valid JSON: one writer's whole output
    assert data["otherData"]["tag"] in ("a", "bbb")
    assert [q.name for q in tmp_path.iterdir()] == ["t.json"]
