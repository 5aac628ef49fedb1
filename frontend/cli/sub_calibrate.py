"""``npu-sim calibrate OP_SUMMARY.csv --chip PRESET [--out CHIP.yaml]``: compare an msprof
op_summary with npu-sim, fit the chip's efficiency parameters, write a calibrated chip
(``frontend/calibrate.py`` has the method)."""
from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from .common import CliError


def add_parser(sub) -> None:
    p = sub.add_parser("calibrate", help="fit a chip config to msprof op_summary data",
                       description="Re-simulate every op_summary row npu-sim can, print the per-op error, "
                                   "fit hbm_efficiency, kernel_launch_ns, cube_efficiency and vector_efficiency "
                                   "by least squares, and write the calibrated chip (usable as --chip).")
    p.add_argument("csv", help="msprof op_summary_*.csv")
    p.add_argument("--chip", default="ascend910b2", help="preset or .json/.yaml to start from (default ascend910b2)")
    p.add_argument("--out", default="", help="write the calibrated chip here (.yaml/.yml/.json)")
    p.add_argument("--params", default="", help="comma-separated subset of the parameters to fit")
    p.set_defaults(handler=run)


def _table(rows, before, title):
    t = Table(title=title, title_justify="left")
    for c in ("row", "op name", "op type", "measured us", "npu-sim us", "ratio", "calibrated us", "ratio "):
        t.add_column(c, justify="left" if c in ("op name", "op type") else "right")
    for r, b in zip(rows, before):
        if b is None:
            t.add_row(str(r.line), escape(r.name), escape(r.op_type), f"{r.measured_us:,.2f}",
                      f"skipped: {escape(r.skip)}", "", "", "")
            continue
        after = r.sim_us if r.sim_us is not None else float("nan")
        t.add_row(str(r.line), escape(r.name), escape(r.op_type), f"{r.measured_us:,.2f}", f"{b:,.2f}",
                  f"{b / r.measured_us:.3f}" if r.measured_us else "-", f"{after:,.2f}",
                  f"{after / r.measured_us:.3f}" if r.measured_us else "-")
    return t


def run(args, console) -> int:
    from npu_sim import get_chip
    from ..calibrate import PARAMS, CalibrationError, calibrate, read_op_summary
    try:
        chip = get_chip(args.chip)
    except (KeyError, ValueError, OSError) as e:
        raise CliError(f"--chip {args.chip}: {e}") from None
    params = [p.strip() for p in args.params.split(",") if p.strip()] or list(PARAMS)
    unknown = [p for p in params if p not in PARAMS]
    if unknown:
        raise CliError(f"--params: unknown parameter(s) {', '.join(unknown)}; known: {', '.join(PARAMS)}")
    if args.out and not args.out.endswith((".yaml", ".yml", ".json")):
        raise CliError(f"--out {args.out}: must end in .yaml, .yml or .json")
    try:
        fit = calibrate(chip, read_op_summary(args.csv), params)
    except CalibrationError as e:
        raise CliError(str(e)) from None
    console.print(_table(fit.rows, fit.before_us, f"{escape(args.csv)} against {chip.name}"))
    skipped = sum(1 for b in fit.before_us if b is None)
    console.print(f"{len(fit.rows) - skipped} rows simulated, {skipped} skipped (reason per row above)")
    for n, v in fit.values.items():
        console.print(f"  {n}: {getattr(chip, n):g} -> {v:g}")
    console.print(f"RMS relative error {fit.rms_before:.1%} -> {fit.rms_after:.1%}")
    if args.out:
        try:
            fit.chip.to_file(args.out)
        except OSError as e:
            raise CliError(f"--out {args.out}: {e.strerror or e}") from None
        console.print(f"wrote {escape(args.out)} (use it as --chip {escape(args.out)})")
    return 0
