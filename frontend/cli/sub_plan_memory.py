"""``npu-sim plan-memory BUFFERS.csv [--out OFFSETS.csv] [--alignment N]``.

Reads the common interchange format of static memory allocation tools: one buffer a
row, ``id,lower,upper,size`` (ints; half-open op lifetime ``[lower, upper)``; size in
bytes; a first row starting with ``id`` is a header). Places every buffer in one arena
with ``acl_runtime.workspace_planner.plan_buffers`` and writes
``id,lower,upper,size,offset``. Prints the arena, the lower bound (largest total of sizes
live at one op) and their ratio. A bad row (missing columns, a non-integer, a negative
size, lower >= upper, a duplicate id) is one line naming the file and line, exit 2.
"""
from __future__ import annotations

import csv
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from acl_runtime.workspace_planner import BufferRequest, plan_buffers

from .common import CliError, writable_file


def add_parser(sub) -> None:
    """Add the ``plan-memory`` subcommand to the ``argparse`` subparsers ``sub``."""
    p = sub.add_parser("plan-memory", help="place buffers with known lifetimes in one arena (CSV in, CSV out)",
                       description="Static memory planning: read id,lower,upper,size rows (half-open lifetime "
                                   "[lower, upper), bytes), place all buffers in one arena (best fit over several "
                                   "orders, exact search for small problems) and write id,lower,upper,size,offset.")
    p.add_argument("buffers", metavar="BUFFERS.csv")
    p.add_argument("--out", metavar="OFFSETS.csv", help="where to write the offsets (default: print them)")
    p.add_argument("--alignment", type=int, default=1, help="offset/size granularity in bytes (default 1)")
    p.set_defaults(handler=cmd_plan_memory)


def _bad(msg: str) -> CliError:
    return CliError(escape(msg))  # user text, printed through rich


def read_buffers(path: Path) -> list[BufferRequest]:
    """Parse BUFFERS.csv. Raises ``CliError`` (one line: file, line, problem)."""
    try:
        text = path.read_text()
    except OSError as e:
        raise _bad(f"cannot read {path}: {e.strerror or e}") from None
    out: list[BufferRequest] = []
    seen: dict[str, int] = {}
    for lineno, row in enumerate(csv.reader(text.splitlines()), start=1):
        if not row or all(not c.strip() for c in row):
            continue
        cells = [c.strip() for c in row]
        where = f"{path.name} line {lineno}"
        if lineno == 1 and cells[0].lower() == "id":
            continue
        if len(cells) < 4:
            raise _bad(f"{where}: expected 4 columns id,lower,upper,size, got {len(cells)}: {','.join(cells)}")
        bid = cells[0]
        try:
            lower, upper, size = (int(c) for c in cells[1:4])
        except ValueError:
            if lineno == 1 and not any(c.lstrip("-").isdigit() for c in cells[1:4]):   # a header, not ours
                raise _bad(f"{where}: a header must be id,lower,upper,size, got {','.join(cells)}") from None
            raise _bad(f"{where}: buffer {bid!r}: lower, upper and size must be integers, "
                           f"got {','.join(cells[1:4])}") from None
        if size < 0:
            raise _bad(f"{where}: buffer {bid!r}: negative size {size}")
        if lower >= upper:
            raise _bad(f"{where}: buffer {bid!r}: lower {lower} >= upper {upper} (lifetimes are [lower, upper))")
        if bid in seen:
            raise _bad(f"{where}: duplicate id {bid!r} (first on line {seen[bid]})")
        seen[bid] = lineno
        out.append(BufferRequest(bid, lower, upper, size))
    if not out:
        raise _bad(f"{path}: no buffers")
    return out


def cmd_plan_memory(args, console: Console) -> int:
    """Handler of ``npu-sim plan-memory``; returns the exit code."""
    if args.alignment < 1:
        raise CliError(f"--alignment must be >= 1, got {args.alignment}")
    out = writable_file(args.out) if args.out else None
    bufs = read_buffers(Path(args.buffers))
    plan = plan_buffers(bufs, alignment=args.alignment)
    rows = [(b.buffer_id, b.lower, b.upper, b.size_bytes, plan.offsets[b.buffer_id]) for b in bufs]
    if out is not None:
        with open(out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["id", "lower", "upper", "size", "offset"])
            w.writerows(rows)
    else:
        t = Table(title="offsets", title_justify="left")
        for c in ("id", "lower", "upper", "size", "offset"):
            t.add_column(c, justify="left" if c == "id" else "right")
        for r in rows:
            t.add_row(escape(str(r[0])), *(str(v) for v in r[1:]))
        console.print(t)
    ratio = f"{plan.arena_bytes / plan.lower_bound_bytes:.3f}" if plan.lower_bound_bytes else "-"
    console.print(f"buffers {len(bufs)}  arena {plan.arena_bytes} B  lower bound {plan.lower_bound_bytes} B  "
                  f"ratio {ratio}  (order {plan.order}{', optimal' if plan.optimal else ''})", highlight=False)
    if out is not None:
        console.print(f"wrote {escape(str(out))}", highlight=False)
    return 0
