"""``npu-trace``: summarise, view, compare, export and validate Chrome traces.

    npu-trace summary  TRACE [--window A:B] [--phase all|compute|steady] [--top N] [--by op|kernel|stream|core]
                             [--device NAME] [--json]
    npu-trace view     TRACE [--window A:B] [--phase P] [--filter OP] [--tracks streams,cores,pipes] [--collapse]
                             [--width N] [--svg OUT]
    npu-trace diff     A B [--top N] [--json]
    npu-trace export   TRACE [--png OUT] [--csv OUT] [--msprof-csv OUT] [--html OUT] [--window] [--phase] ...
    npu-trace validate TRACE
    npu-trace timeline TRACE [--out PNG] [--width N] [--track TEXT ...] [--no-pipes]   (the older text/PNG view)

Exit codes: 0 success; 1 the trace is readable but invalid (``validate``), or a
requested PNG could not be drawn; 2 bad usage or a file that cannot be read as a
trace (missing, truncated, not JSON, no ``traceEvents``, malformed events, no
spans). Errors are one line on stderr, never a traceback.

(``npu-trace`` is unrelated to CANN's own simulator, which is called npusim.)
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Sequence

from .console import PipeConsole

from .commands import COMMANDS, CommandError
from .groups import BY
from .load import TraceLoadError
from .window import PHASES

PROG = "npu-trace"
_T = {"metavar": "TRACE", "help": "trace file (.json or .json.gz; any Chrome trace)"}


def _width(text: str) -> int:
    """A --width: an int of at least 20 characters (argparse says so in one line)."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if n < 20:
        raise argparse.ArgumentTypeError(f"must be at least 20 characters, got {n}")
    return n


def _selection(p: argparse.ArgumentParser) -> None:
    p.add_argument("--window", metavar="START:END", help="only this time window, in ns (units ns/us/ms allowed; "
                                                         "either end may be empty), e.g. 1ms:3ms")
    p.add_argument("--phase", choices=PHASES, default="all",
                   help="all (default); compute: skip the weight upload before the first kernel; "
                        "steady: only the last iteration")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("npu-sim")
    except PackageNotFoundError:
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG, description="Summarise, view, compare, export and validate Chrome traces written by npu-sim "
                               "(or any Chrome trace: the torch profiler's, msprof's trace_view.json).",
        epilog="Exit codes: 0 ok; 1 invalid trace (validate) or PNG not drawn; 2 bad usage or unreadable file. "
               "Times print in ns.")
    p.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    s = sub.add_parser("summary", help="tables: ops, engines, overlap, host/device, critical path, idle gaps",
                       description="Per-op table (calls, total/mean/min/max device time, share, bound class), "
                                   "engine busy shares, copy/compute overlap, host against device time, the "
                                   "critical path, streams, the longest idle gaps and counters.")
    s.add_argument("trace", **_T)
    _selection(s)
    s.add_argument("--top", type=int, default=10, metavar="N", help="rows in the op, path and gap tables (10)")
    s.add_argument("--by", choices=BY, default="op", help="also group device time by kernel, stream or core")
    s.add_argument("--device", metavar="NAME", help='only this device process, e.g. "device 0"')
    s.add_argument("--json", action="store_true", help="print the analysis as JSON instead of tables")

    v = sub.add_parser("view", help="terminal timeline (rich): one row per track, colour by op category",
                       description="Draw a timeline scaled to the terminal: one row per track, eighth blocks "
                                   "for span edges, shading where many spans share a cell, a time axis and a "
                                   "legend. Fast on millions of spans (cells aggregate).")
    v.add_argument("trace", **_T)
    _selection(v)
    v.add_argument("--filter", metavar="OP", help="only spans whose name contains OP (case-insensitive)")
    v.add_argument("--tracks", default="streams,cores", metavar="KINDS",
                   help="comma-separated: streams, cores (pipes of a core merged), pipes (default streams,cores)")
    v.add_argument("--collapse", action="store_true", help="one row per core type instead of per core")
    v.add_argument("--width", type=_width, metavar="N", help="width in characters (default: the terminal's)")
    v.add_argument("--svg", metavar="OUT", help="also save the view as SVG (rich's export)")
    v.add_argument("-i", "--interactive", action="store_true",
                   help="pan/zoom with the keys, show a span's args, jump along the critical path (needs textual)")

    d = sub.add_parser("diff", help="compare two runs per op and in total (ratios, sorted by change)")
    d.add_argument("a", metavar="A", help="first trace")
    d.add_argument("b", metavar="B", help="second trace")
    d.add_argument("--top", type=int, default=None, metavar="N", help="rows in the per-op table (all)")
    d.add_argument("--json", action="store_true", help="print JSON instead of tables")

    e = sub.add_parser("export", help="PNG Gantt chart, per-op CSV, msprof op_summary CSV, one-page HTML")
    e.add_argument("trace", **_T)
    _selection(e)
    e.add_argument("--png", metavar="OUT", help="Gantt chart (matplotlib), windowed and collapsed as view")
    e.add_argument("--csv", metavar="OUT", help="the per-op table")
    e.add_argument("--msprof-csv", metavar="OUT", help="one row per task in msprof's op_summary columns")
    e.add_argument("--html", metavar="OUT", help="one self-contained page: zoomable timeline and tables")
    e.add_argument("--tracks", default="streams,cores", metavar="KINDS", help="as view (PNG and HTML)")
    e.add_argument("--collapse", action="store_true", help="as view (PNG and HTML)")

    va = sub.add_parser("validate", help="check structure, track names, flows, B/E pairs and slice nesting",
                        description="Check that TRACE is a well-formed Chrome trace: events have the right "
                                    "fields and finite times, every process and track is named, flows pair up "
                                    "and land inside spans, B/E events pair up, and slices on a track nest or "
                                    "follow each other (partial overlap is an error). Exit 0 if valid, 1 with "
                                    "the first problem if not, 2 if unreadable.")
    va.add_argument("trace", **_T)

    t = sub.add_parser("timeline", help="per-track timeline: text, or a PNG with matplotlib",
                       description="Draw one row per track (host thread, streams, core pipes). Without --out, "
                                   "print a text timeline bucketed into columns. With --out, draw a PNG with "
                                   "matplotlib (optional: pip install matplotlib); if it is missing, say so, "
                                   "print the text timeline instead and exit 1.")
    t.add_argument("trace", **_T)
    t.add_argument("--out", metavar="PNG", help="write an image here (needs matplotlib)")
    t.add_argument("--width", type=_width, default=None, metavar="N",
                   help="text width in characters (default: the terminal's)")
    t.add_argument("--track", action="append", default=[], metavar="TEXT",
                   help='only tracks whose "process / thread" name contains TEXT (repeatable), e.g. "stream"')
    t.add_argument("--no-pipes", action="store_true", help="hide the per-core pipe tracks")
    return p


def _error(msg: str) -> None:
    print(f"{PROG}: error: {msg}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``npu-trace``; returns the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2, already printed)
        return int(e.code or 0)
    # a terminal gets its own width; a pipe or file gets room for the widest table
    wide = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    console = PipeConsole(width=200 if wide else None)
    try:
        return COMMANDS[args.command](args, console)
    except (TraceLoadError, CommandError) as e:
        _error(str(e))
        return 2
    except BrokenPipeError:
        return 0
    except Exception as e:  # last resort: one line, never a traceback
        _error(f"could not process {getattr(args, 'trace', None) or args.a}: {type(e).__name__}: {e}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
