"""``npu-sim``: run ONNX models on a simulated Ascend-style NPU.

  npu-sim run [MODEL] [--chip NAME|FILE] [--inputs FILE.npz] [--trace FILE.json] [--save-outputs DIR]
  npu-sim info MODEL
  npu-sim chips
  npu-sim reweight MODEL OUT.onnx [--seed N]

MODEL is an .onnx path, the name of a light model that the onnx package ships
(e.g. ``light_bvlc_alexnet``), or ``paraphrase-MiniLM-L3-v2`` (optional extra ``models``). Not to be confused with CANN's own "npusim"
simulator: this project is unrelated.

Exit codes: 0 success (and the reference check passed), 1 the run failed or the
check failed (or an output file could not be written), 2 bad arguments or an unsupported
model, 130 interrupted. Errors go to stderr, one line each.
"""
from __future__ import annotations

import sys

from rich.console import Console
from rich.markup import escape

from traces.console import PipeConsole

from ..model_zoo import light_model_path, light_models
from .commands import cmd_chips, cmd_info, cmd_reweight
from .common import DEFAULT_MODEL, MINILM, CliError
from .parser import build_parser
from .run import cmd_run, rel_error

__all__ = ["main", "CliError", "rel_error", "light_model_path", "light_models", "DEFAULT_MODEL", "MINILM",
           "cmd_run", "cmd_info", "cmd_chips", "cmd_reweight"]


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``npu-sim`` console script. Returns the exit code."""
    args = build_parser().parse_args(argv)
    console = PipeConsole() if sys.stdout.isatty() else PipeConsole(width=150)
    # an error is one line: piped stderr never wraps it (scripts and tests grep it whole)
    err_console = Console(stderr=True) if sys.stderr.isatty() else Console(stderr=True, width=150, soft_wrap=True)
    try:
        if getattr(args, "handler", None) is not None:   # a frontend/cli/sub_*.py subcommand
            return args.handler(args, console)
        if args.cmd == "chips":
            return cmd_chips(console)
        if args.cmd == "info":
            return cmd_info(args, console)
        if args.cmd == "reweight":
            return cmd_reweight(args, console)
        return cmd_run(args, console)
    except CliError as e:
        err_console.print(f"[red]error:[/] {escape(str(e))}", highlight=False)   # user text: no markup
        return e.code
    except MemoryError as e:   # e.g. a huge --batch / --dim folded on the host before any size check
        err_console.print(f"[red]error:[/] out of host memory: {escape(str(e) or 'allocation failed')}",
                          highlight=False)
        return 1
    except KeyboardInterrupt:
        err_console.print("[yellow]interrupted[/]")
        return 130
    except BrokenPipeError:   # stdout's reader stopped reading (`npu-sim chips | head`): not a failure
        return 0

