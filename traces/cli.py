"""``npu-trace``: summarise, validate and draw npu-sim Chrome traces.

    npu-trace summary TRACE.json [--top N] [--device NAME] [--json]
    npu-trace validate TRACE.json
    npu-trace timeline TRACE.json [--out PNG] [--width N] [--track TEXT ...] [--no-pipes]

Exit codes: 0 success; 1 the trace is readable but invalid (``validate``), or a
requested PNG could not be drawn; 2 bad usage or a file that cannot be read as a
trace (missing, not JSON, no ``traceEvents``, malformed events). Errors are one
line on stderr, never a traceback.

(``npu-trace`` is unrelated to CANN's own simulator, which is called npusim.)
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Sequence

from rich.console import Console

from .load import TraceLoadError, from_chrome_trace, read_trace_file

PROG = "npu-trace"


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("npu-sim")
    except PackageNotFoundError:
        return "unknown"


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Summarise, validate and draw Chrome traces written by npu-sim "
                    "(open the same files in https://ui.perfetto.dev or chrome://tracing).",
        epilog="Exit codes: 0 ok; 1 invalid trace (validate) or PNG not drawn (timeline --out); "
               "2 bad usage or unreadable file. Times print in ns.")
    p.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", required=True)

    s = sub.add_parser("summary", help="tables: top ops, engine utilisation, overlap, streams, idle gaps",
                       description="Print top ops by device time (with FLOP/s, GB/s and pipe ratios), engine "
                                   "utilisation per core type and pipe, copy/compute overlap, per-stream busy/"
                                   "wait/idle time, the critical stream, the longest idle gaps and counters.")
    s.add_argument("trace", metavar="TRACE.json", help="trace file (.json or .json.gz)")
    s.add_argument("--top", type=int, default=10, metavar="N", help="rows in the op and idle-gap tables (default 10)")
    s.add_argument("--device", metavar="NAME", help='only this device process, e.g. "device 0"')
    s.add_argument("--json", action="store_true", help="print the analysis as JSON instead of tables")

    v = sub.add_parser("validate", help="check structure, track names, flows and that no spans overlap",
                       description="Check that TRACE.json is a well-formed Chrome trace: events have the "
                                   "right fields and finite times, every process and track is named, flows "
                                   "pair up and land inside spans, and no two spans overlap on one track. "
                                   "Exit 0 if valid, 1 with the first problem if not, 2 if unreadable.")
    v.add_argument("trace", metavar="TRACE.json", help="trace file (.json or .json.gz)")

    t = sub.add_parser("timeline", help="per-track timeline: text, or a PNG with matplotlib",
                       description="Draw one row per track (host thread, streams, core pipes). Without --out, "
                                   "print a text timeline bucketed into columns. With --out, draw a PNG with "
                                   "matplotlib (optional: pip install matplotlib); if it is missing, say so, "
                                   "print the text timeline instead and exit 1.")
    t.add_argument("trace", metavar="TRACE.json", help="trace file (.json or .json.gz)")
    t.add_argument("--out", metavar="PNG", help="write an image here (needs matplotlib)")
    t.add_argument("--width", type=int, default=None, metavar="N",
                   help="text width in characters (default: the terminal's)")
    t.add_argument("--track", action="append", default=[], metavar="TEXT",
                   help='only tracks whose "process / thread" name contains TEXT (repeatable), e.g. "stream"')
    t.add_argument("--no-pipes", action="store_true", help="hide the per-core pipe tracks")
    return p


def _error(msg: str) -> None:
    print(f"{PROG}: error: {msg}", file=sys.stderr)


def _summary(args, console: Console) -> int:
    from .report import render_summary, summary_data
    data = from_chrome_trace(read_trace_file(args.trace))
    if args.top < 1:
        _error("--top must be at least 1")
        return 2
    if args.device is not None and args.device not in data.devices:
        _error(f"no spans on {args.device!r} in {args.trace} (devices: {', '.join(data.devices) or 'none'})")
        return 2
    if args.json:
        print(json.dumps(summary_data(data, args.top, args.device), indent=2, default=str))
    else:
        render_summary(console, data, args.trace, args.top, args.device)
    return 0


def _validate(args, console: Console) -> int:
    from .validate import TraceFormatError, validate_trace
    trace = read_trace_file(args.trace)
    try:
        stats = validate_trace(trace)
    except (TraceFormatError, ValueError) as e:
        _error(f"invalid trace {args.trace}: {e}")
        return 1
    console.print(f"OK: {args.trace}: {stats['spans']:,} spans on {stats['tracks']} tracks in "
                  f"{stats['processes']} processes, {stats['flows']} flows, {stats['counters']} counter samples; "
                  "no overlapping spans", highlight=False, soft_wrap=True)
    return 0


def _timeline(args, console: Console) -> int:
    from .timeline import plot_timeline, text_timeline
    data = from_chrome_trace(read_trace_file(args.trace))
    code = 0
    if args.out:
        try:
            path = plot_timeline(data, args.out, args.track, not args.no_pipes)
        except ImportError:
            _error("matplotlib is not installed, so no PNG was written (pip install matplotlib); "
                   "text timeline follows")
            code = 1
        else:
            console.print(f"wrote {path}", highlight=False)
            return 0
    width = args.width or console.width
    for line in text_timeline(data, width, args.track, not args.no_pipes):
        console.print(line, soft_wrap=True)
    return code


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``npu-trace``; returns the exit code."""
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # --help (0) or a usage error (2, already printed)
        return int(e.code or 0)
    # a terminal gets its own width; a pipe or file gets room for the widest table
    wide = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    console = Console(width=200 if wide else None)
    try:
        return {"summary": _summary, "validate": _validate, "timeline": _timeline}[args.command](args, console)
    except TraceLoadError as e:
        _error(str(e))
        return 2
    except BrokenPipeError:
        return 0
    except Exception as e:  # last resort: one line, never a traceback
        _error(f"could not process {args.trace}: {type(e).__name__}: {e}")
        return 2


if __name__ == "__main__":
    sys.exit(main())
