"""Sweep results: the table (DataFrame or records), the files and the rich table.

Files in the output directory:
  ``results.csv``      one row per (point, workload): varied fields, then every metric
  ``results.json``     the experiment, the simulator version and, per task, the full
                       chip config, the workload, all metrics and the per-op rows
                       (bound class, tiling, energy estimate)
  ``results.parquet``  the CSV's table, when pandas and pyarrow are installed
Energy figures are estimates (npu_sim.hardware.energy), and say so in their names.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path


def table(rows: list[dict]):
    """A pandas DataFrame of ``rows`` if pandas is installed, else ``rows`` itself."""
    try:
        import pandas as pd
    except ImportError:
        return rows
    return pd.DataFrame(rows)


def records(tab) -> list[dict]:
    """The rows of a table from :func:`table` as a list of dicts."""
    return tab.to_dict("records") if hasattr(tab, "to_dict") else list(tab)


def write_results(out: Path, exp, tasks: list[dict], results: dict[int, dict], rows: list[dict], meta: dict) -> None:
    """Write results.csv, results.json (and results.parquet when possible) into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    cols = list(rows[0]) if rows else []
    with open(out / "results.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols)
        w.writeheader()
        w.writerows(rows)
    doc = dict(meta)
    doc["energy_note"] = "energy_* figures are first-order estimates (npu_sim/hardware/energy.py), not measurements"
    doc["points"] = [{"index": t["index"], "point": t["point"], "values": t["values"], "workload": t["workload"],
                      "label": t["label"], "chip": t["chip"], "key": t["key"], "result": results[t["index"]]}
                     for t in tasks]
    (out / "results.json").write_text(json.dumps(doc, indent=1, sort_keys=False, default=str))
    try:
        import pandas as pd
        import pyarrow  # noqa: F401
    except ImportError:
        return
    pd.DataFrame(rows).to_parquet(out / "results.parquet")


def _fmt(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else ""
    if isinstance(v, float):
        if v == 0:
            return "0"
        if abs(v) >= 1e5 or abs(v) < 1e-2:
            return f"{v:.3g}"
        return f"{v:,.3f}".rstrip("0").rstrip(".")
    return str(v)


def print_table(console, exp, tab, max_rows: int = 60) -> None:
    """A rich table of the varied fields and the experiment's metrics."""
    from rich.markup import escape
    from rich.table import Table
    rows = records(tab)
    cols = ["workload"] + exp.varied() + list(exp.metrics)
    t = Table(title=f"sweep {escape(exp.name)}: {len(rows)} runs on {escape(exp.chip)} "
                    f"({'timing-only' if exp.timing_only else 'with data'}; energy is an estimate)",
              title_justify="left")
    for c in cols:
        t.add_column(c, justify="left" if c == "workload" else "right")
    for r in rows[:max_rows]:
        t.add_row(*(escape(_fmt(r.get(c))) for c in cols))
    console.print(t)
    if len(rows) > max_rows:
        console.print(f"... {len(rows) - max_rows} more rows in results.csv")
