"""Run the onnx package's own node test cases through the ONNX frontend.

``python -m frontend.onnx_node_tests [--ops Add,MatMul] [--chip tiny] [--markdown FILE] [--readme FILE] [--verbose]``

Regenerate the committed tables with ``--markdown docs/onnx_node_tests.md --readme README.md``
(the README's block between ``<!-- node-test-table -->`` markers and its total).

The cases are ``onnx.backend.test.case.node``: each ``expect(...)`` call in the
package's op modules builds a one-node model plus inputs and expected outputs computed
by numpy in those modules (the onnx wheel does not ship the ``data/node`` folders, so
the cases are generated in memory by importing the op's module). For every op in
:data:`OPS` this runs each single-node case of that op through
:func:`frontend.onnx_import.load_onnx` -> :class:`frontend.runner.ModelRunner` on the
simulated chip and compares with the expected outputs:

* float outputs: same dtype and shape, ``|got - want| <= atol + rtol * |want|`` with
  the case's rtol/atol (1e-3 / 1e-7), rtol raised to 1e-2 for float16/bfloat16
  outputs (DESIGN.md section 9), NaN where NaN is expected;
* integer and bool outputs: equal.

Inputs that exported models carry as constants -- shapes, axes and slice bounds
(:data:`STATIC_INPUTS`) -- are bound as initializers, as an exporter would emit them,
so the frontend folds them at prepare time; every other input is a runtime input
copied to the device. A case fails with a reason: ``unsupported`` (the frontend or
an aclnn phase 1 refused it: attribute, dtype, dynamic shape), ``numbers`` (wrong
values, shape or dtype), or ``error`` (anything else). :data:`KNOWN_FAILURES` lists
the cases expected to fail and why; :func:`regressions` reports the difference.

Modules: :mod:`.cases` (the cases, running one, known failures), :mod:`.report` (rich
table, Markdown); :func:`main` is the ``npu-sim-node-tests`` entry point.
"""
from __future__ import annotations

import argparse
import sys

from .cases import (HALF_RTOL, KNOWN_FAILURES, MODULES, OPS, STATIC_INPUTS, CaseResult, NodeCase, OpSummary, collect,
                    fixed, regressions, run_all, run_case)
from .report import markdown, readme_table, rich_table, update_readme

__all__ = ["OPS", "MODULES", "STATIC_INPUTS", "KNOWN_FAILURES", "HALF_RTOL", "NodeCase", "CaseResult", "OpSummary",
           "collect", "run_case", "run_all", "regressions", "fixed", "rich_table", "markdown", "readme_table",
           "update_readme", "main"]


def main(argv: list[str] | None = None) -> int:
    """Entry point: print the table; exit 1 if a case fails that is not a known failure."""
    p = argparse.ArgumentParser(prog="python -m frontend.onnx_node_tests",
                                description="Run onnx's node test cases through the npu-sim ONNX frontend.")
    p.add_argument("--ops", help=f"comma-separated op types (default: all {len(OPS)})")
    p.add_argument("--chip", default="tiny", help="chip preset (default tiny)")
    p.add_argument("--markdown", metavar="FILE", help="also write the table as Markdown")
    p.add_argument("--readme", metavar="FILE", help="also rewrite the node-test table block of this README")
    p.add_argument("--verbose", action="store_true", help="longer failure reasons")
    args = p.parse_args(argv)
    ops = OPS if not args.ops else tuple(o.strip() for o in args.ops.split(","))
    unknown = [o for o in ops if o not in MODULES]
    from rich.console import Console
    console = Console() if sys.stdout.isatty() else Console(width=160)
    if unknown:
        console.print(f"[red]error:[/] unknown op(s) {', '.join(unknown)}; known: {', '.join(OPS)}")
        return 2
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the case modules' own numpy overflow warnings
        summary = run_all(ops, args.chip)
    console.print(rich_table(summary, args.verbose))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write(markdown(summary, args.chip))
        console.print(f"wrote {args.markdown}")
    if args.readme:
        with open(args.readme) as f:
            text = f.read()
        with open(args.readme, "w") as f:
            f.write(update_readme(text, summary))
        console.print(f"updated {args.readme}")
    new = regressions(summary)
    for r in new:
        console.print(f"[red]unexpected failure[/] {r.name}: {r.status}: {r.reason}")
    for name in fixed(summary):
        console.print(f"[green]now passes[/] {name} (remove it from KNOWN_FAILURES)")
    return 1 if new else 0

