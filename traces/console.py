"""A rich ``Console`` for command-line output that may go to a pipe closed early.

rich's ``Console.on_broken_pipe`` (rich 13+) points stdout at ``os.devnull`` and raises
``SystemExit(1)`` when a write meets a closed pipe, as the Python documentation's note
on SIGPIPE suggests (https://docs.python.org/3/library/signal.html#note-on-sigpipe).
So ``npu-trace summary t.json | head`` and ``npu-sim chips | head`` exited 1 although
nothing went wrong: the reader just stopped reading, and the exit cut the command
short (``npu-sim run | head`` wrote no trace). :class:`PipeConsole` does the same
redirection and then carries on quietly: the command finishes (its files written) and
its exit code is its own.
"""
from __future__ import annotations

import os
import sys

from rich.console import Console


class PipeConsole(Console):
    """``rich.console.Console`` that, when its stdout pipe is closed by the reader,
    points stdout at ``os.devnull`` (so the interpreter's final flush is silent) and
    goes quiet, instead of exiting with code 1."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, sys.stdout.fileno())
        finally:
            os.close(devnull)


__all__ = ["PipeConsole"]
