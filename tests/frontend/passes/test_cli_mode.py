"""``npu-sim run --passes`` / ``--disable-pass`` / ``--mode`` at the command line."""
from __future__ import annotations

from frontend.cli import main
from frontend.passes import PASSES, pass_names


def test_passes_lists_every_pass_in_order(capsys):
    assert main(["run", "--passes"]) == 0
    out = capsys.readouterr().out
    pos = [out.index(name) for name in pass_names()]
    assert pos == sorted(pos) and len(pos) == len(PASSES) == 9


def test_unknown_pass_and_mode_are_one_line_errors(capsys):
    assert main(["run", "--disable-pass", "fold_everything", "--no-progress"]) == 2
    err = capsys.readouterr()
    assert "unknown pass fold_everything" in err.out + err.err and "Traceback" not in err.out + err.err
    try:
        main(["run", "--mode", "lazy"])
    except SystemExit as e:   # argparse choices
        assert e.code == 2
