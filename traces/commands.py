"""The handlers of ``npu-trace``'s subcommands: ``fn(args, console) -> exit code``.

Every command loads its trace(s) with :func:`load`, which turns a missing,
truncated, non-JSON or non-trace file, and a trace without spans, into a
one-line :class:`~traces.load.TraceLoadError` / :class:`CommandError` (exit 2).
"""
from __future__ import annotations

import io
import json
import os
import sys

from rich.console import Console

from .columns import SUMMARY_ARG_KEYS
from .load import TraceData, TraceLoadError, read_trace_file
from .stream_load import load_trace
from .window import select


class CommandError(Exception):
    """Bad usage found after parsing (one line; exit code 2)."""


def load(path: str, need_spans: bool = True, slim: bool = False) -> TraceData:
    """The spans of the trace at ``path`` (streamed into compact columns when it is
    large, :mod:`traces.stream_load`; ``slim``: then keeping only the span args the
    summary, view and diff read, :data:`traces.columns.SUMMARY_ARG_KEYS`). Raises
    TraceLoadError, or CommandError for a trace without spans."""
    data = load_trace(path, keep_args=SUMMARY_ARG_KEYS if slim else None)
    if need_spans and not data.spans:
        raise CommandError(f"{path}: the trace has no spans (no X, B/E or instant events): nothing to show")
    return data


def _load_summary(args, name_filter: str | None = None) -> TraceData:
    """The trace for ``summary`` and ``view``: a big file with its pipe spans
    aggregated while it streams (:mod:`traces.bounded_load`, bounded memory), else
    :func:`load`."""
    from . import stream_load
    try:
        big = os.path.getsize(args.trace) >= stream_load.STREAM_MIN_BYTES
    except OSError:
        big = False
    if not big:
        return load(args.trace, slim=True)
    from .bounded_load import load_bounded
    try:
        data = load_bounded(args.trace, args.window, args.phase, core_unions=getattr(args, "by", None) == "core",
                            name_filter=name_filter)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if not data.spans:
        raise CommandError(f"{args.trace}: the trace has no spans (no X, B/E or instant events): nothing to show")
    return data


def _select(args, data: TraceData) -> TraceData:
    try:
        out = select(data, args.window, args.phase)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if not out.spans:
        raise CommandError(f"{args.trace}: no spans in the selected window/phase")
    return out


def _err(msg: str) -> None:
    print(f"npu-trace: error: {msg}", file=sys.stderr)


def summary(args, console: Console) -> int:
    from .report import render_summary, summary_data
    if args.top < 1:
        raise CommandError("--top must be at least 1")
    data = _select(args, _load_summary(args))
    if args.device is not None and args.device not in data.devices:
        raise CommandError(f"no spans on {args.device!r} in {args.trace} "
                           f"(devices: {', '.join(data.devices) or 'none'})")
    if args.json:
        print(json.dumps(summary_data(data, args.top, args.device, args.by), indent=2, default=str))
    else:
        render_summary(console, data, args.trace, args.top, args.device, args.by)
    return 0


def _tracks(text: str) -> list[str]:
    from .view import TRACK_KINDS
    kinds = [k.strip() for k in text.split(",") if k.strip()]
    bad = [k for k in kinds if k not in TRACK_KINDS]
    if bad or not kinds:
        raise CommandError(f"--tracks takes {', '.join(TRACK_KINDS)} (comma-separated), not {text!r}")
    return kinds


def view(args, console: Console) -> int:
    from .view import view_lines
    from .window import parse_window
    kinds = _tracks(args.tracks)
    data = _select(args, load(args.trace) if args.interactive else _load_summary(args, args.filter))
    try:
        window = parse_window(args.window)
    except ValueError as e:
        raise CommandError(str(e)) from None
    if args.interactive:
        try:
            from .interactive import TraceApp
        except ImportError:
            raise CommandError("--interactive needs textual (pip install textual, or the 'trace' extra)") from None
        TraceApp(data, kinds, args.collapse, args.filter).run()
        return 0
    width = args.width or console.width
    rec = Console(record=True, width=width, file=io.StringIO(), force_terminal=True,
                  color_system="truecolor") if args.svg else None
    for line in view_lines(data, width, kinds, args.collapse, args.filter, window):
        console.print(line, soft_wrap=True, highlight=False)
        if rec is not None:
            rec.print(line, soft_wrap=True, highlight=False)
    if rec is not None:
        rec.save_svg(args.svg, title=f"npu-trace view {args.trace}")
        console.print(f"wrote {args.svg}", highlight=False)
    return 0


def diff(args, console: Console) -> int:
    from .diff import diff_data, render_diff
    rep = diff_data(load(args.a, slim=True), load(args.b, slim=True))
    if args.json:
        print(json.dumps(rep, indent=2))
    else:
        render_diff(console, rep, args.a, args.b, args.top)
    return 0


def export(args, console: Console) -> int:
    from . import export as ex
    if not (args.png or args.csv or args.msprof_csv or args.html):
        raise CommandError("export needs at least one of --png, --csv, --msprof-csv, --html")
    for out in (args.png, args.csv, args.msprof_csv, args.html):
        if out and os.path.exists(out) and os.path.samefile(out, args.trace):
            raise CommandError(f"output {out} is the input trace: choose another path")
    kinds = _tracks(args.tracks)
    data = _select(args, load(args.trace))
    code = 0
    if args.csv:
        console.print(f"wrote {ex.write_op_csv(data, args.csv)}", highlight=False)
    if args.msprof_csv:
        console.print(f"wrote {ex.write_msprof_csv(data, args.msprof_csv)}", highlight=False)
    if args.html:
        from .html_export import write_html
        console.print(f"wrote {write_html(data, args.html, kinds, args.collapse, title=args.trace)}",
                      highlight=False)
    if args.png:
        try:
            console.print(f"wrote {ex.write_png(data, args.png, kinds, args.collapse)}", highlight=False)
        except ImportError:
            _err("matplotlib is not installed, so no PNG was written (pip install matplotlib)")
            code = 1
    return code


def validate(args, console: Console) -> int:
    from .validate import TraceFormatError, validate_trace
    trace = read_trace_file(args.trace)
    try:
        stats = validate_trace(trace)
    except (TraceFormatError, ValueError) as e:
        _err(f"invalid trace {args.trace}: {e}")
        return 1
    if not stats["spans"] and not stats["instants"]:
        _err(f"invalid trace {args.trace}: no spans (no X, B/E or instant events)")
        return 1
    console.print(f"OK: {args.trace}: {stats['spans']:,} spans on {stats['tracks']} tracks in "
                  f"{stats['processes']} processes, {stats['flows']} flows, {stats['counters']} counter samples; "
                  "no overlapping spans (nested slices allowed)", highlight=False, soft_wrap=True)
    return 0


def timeline(args, console: Console) -> int:
    from .timeline import plot_timeline, text_timeline
    data = load(args.trace)
    code = 0
    if args.out:
        try:
            path = plot_timeline(data, args.out, args.track, not args.no_pipes)
        except ImportError:
            _err("matplotlib is not installed, so no PNG was written (pip install matplotlib); "
                 "text timeline follows")
            code = 1
        else:
            console.print(f"wrote {path}", highlight=False)
            return 0
    width = args.width or console.width
    for line in text_timeline(data, width, args.track, not args.no_pipes):
        console.print(line, soft_wrap=True)
    return code


COMMANDS = {"summary": summary, "view": view, "diff": diff, "export": export, "validate": validate,
            "timeline": timeline}
__all__ = ["COMMANDS", "CommandError", "load", "TraceLoadError"]
