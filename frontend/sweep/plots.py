"""Plots of a sweep (matplotlib, the optional extra ``plot``), one PNG per figure:

* ``<metric>_vs_<field>.png``: the metric against each varied field, one line per
  workload (and per value of the other varied fields when there are two or more);
* ``heatmap_<metric>_<workload>.png``: for two-axis sweeps, the metric over the grid
  of the two fields, per workload;
* ``pareto_<workload>.png``: latency against estimated energy, with the Pareto front
  (points no other point beats on both), when both are measured.

All plots use the Agg backend (no display needed).
"""
from __future__ import annotations

import re
from pathlib import Path

from .report import records


def _safe(s: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", s).strip("_")[:80]


def _tick(field: str, v) -> str:
    """A compact tick label: bytes as KiB/MiB/GiB, other values in %g."""
    if field.endswith("_bytes"):
        for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
            if v >= size:
                return f"{v / size:g} {unit}"
    return f"{v:g}"


def _log_if_wide(ax, field: str, xs, ys) -> None:
    """Log axes for positive values spanning a factor of 8 or more (bandwidths, core counts,
    sizes); the x ticks are then the swept values themselves."""
    from matplotlib.ticker import NullFormatter
    x = sorted({v for v in xs if isinstance(v, (int, float))})
    if x and min(x) > 0 and max(x) / min(x) >= 8:
        ax.set_xscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())
        ax.set_xticks(x, [_tick(field, v) for v in x], fontsize=7)
    y = [v for v in ys if isinstance(v, (int, float))]
    if y and min(y) > 0 and max(y) / min(y) >= 8:
        ax.set_yscale("log")


def _save(plt, fig, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
    return path


def make_plots(exp, tab, out: str | Path) -> list[Path]:
    """Write the PNGs into ``out`` and return their paths. Raises ImportError when
    matplotlib is missing (``pip install 'npu-sim[plot]'``)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    rows = records(tab)
    fields = list(exp.axes) + [next(iter(g)) for g in exp.zipped]   # one per dimension of the grid
    labels = list(dict.fromkeys(r["workload"] for r in rows))
    written = []
    metrics = [m for m in exp.metrics if rows and all(isinstance(r.get(m), (int, float)) for r in rows)]
    for metric in metrics:
        for f in fields:
            others = [g for g in fields if g != f]
            fig, ax = plt.subplots(figsize=(6, 4))
            for lab in labels:
                sub = [r for r in rows if r["workload"] == lab]
                groups = sorted({tuple(r[g] for g in others) for r in sub})
                for grp in groups:
                    pts = sorted((r[f], r[metric]) for r in sub if tuple(r[g] for g in others) == grp)
                    name = lab + ("" if not others else " " + ", ".join(f"{g}={v:g}" if isinstance(v, float)
                                                                          else f"{g}={v}" for g, v in zip(others, grp)))
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
            _log_if_wide(ax, f, [r[f] for r in rows], [r[metric] for r in rows])
            ax.set_xlabel(f)
            ax.set_ylabel(metric + (" (estimate)" if metric.startswith("energy") else ""))
            ax.set_title(f"{exp.name}: {metric} vs {f}", fontsize=10)
            ax.grid(True, alpha=0.3)
            if len(ax.lines) <= 12:
                ax.legend(fontsize=7)
            written.append(_save(plt, fig, out / f"{_safe(metric)}_vs_{_safe(f)}.png"))
    if len(fields) == 2:
        fx, fy = fields
        xs = sorted({r[fx] for r in rows})
        ys = sorted({r[fy] for r in rows})
        for metric in metrics:
            for lab in labels:
                grid = [[float("nan")] * len(xs) for _ in ys]
                for r in rows:
                    if r["workload"] == lab:
                        grid[ys.index(r[fy])][xs.index(r[fx])] = r[metric]
                fig, ax = plt.subplots(figsize=(6, 4.5))
                im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
                ax.set_xticks(range(len(xs)), [_tick(fx, x) for x in xs])
                ax.set_yticks(range(len(ys)), [_tick(fy, y) for y in ys])
                ax.set_xlabel(fx)
                ax.set_ylabel(fy)
                for i, row in enumerate(grid):
                    for j, v in enumerate(row):
                        ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=7, color="w")
                fig.colorbar(im, ax=ax, label=metric)
                ax.set_title(f"{exp.name}: {metric}, {lab}", fontsize=9)
                written.append(_save(plt, fig, out / f"heatmap_{_safe(metric)}_{_safe(lab)}.png"))
    if "latency_ns" in metrics and "energy_uj" in metrics:
        for lab in labels:
            pts = [(r["latency_ns"], r["energy_uj"]) for r in rows if r["workload"] == lab]
            front = sorted(p for p in pts if not any(q[0] <= p[0] and q[1] <= p[1] and q != p for q in pts))
            fig, ax = plt.subplots(figsize=(6, 4))
            ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=14, label="points")
            ax.plot([p[0] for p in front], [p[1] for p in front], "r-o", ms=4, label="Pareto front")
            ax.set_xlabel("latency_ns")
            ax.set_ylabel("energy_uj (estimate)")
            ax.set_title(f"{exp.name}: latency vs energy, {lab}", fontsize=9)
            ax.legend(fontsize=7)
            written.append(_save(plt, fig, out / f"pareto_{_safe(lab)}.png"))
    return written
