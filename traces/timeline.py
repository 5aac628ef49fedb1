"""Per-track timelines: a text one (rich, bucketed into columns) and a PNG one
(matplotlib, an optional dependency). Times stay in ns."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from rich.text import Text

from .intervals import end_ns
from .load import TraceData, as_trace_data
from .tracks import COPY_PIPES, parse_core_track, process_sort_key, thread_sort_key

#: shading by the busy share of a column: >0, >=1/4, >=1/2, >=3/4
SHADES = ("░", "▒", "▓", "█")
ZERO_MARK = "·"   # a zero-duration span (EVENT_RECORD) in an otherwise empty column


def track_color(track: tuple[str, str], cat: str) -> str:
    """A rich/matplotlib-friendly colour name for a track."""
    core = parse_core_track(track[1])
    if core is not None:
        return "cyan" if core.pipe in COPY_PIPES else ("red" if core.pipe == "CUBE" else "blue")
    return {"host": "magenta", "memcpy": "yellow", "task": "green"}.get(cat, "white")


def select_tracks(source: Any, include: Iterable[str] = (), pipes: bool = True) -> list[tuple[tuple[str, str], list]]:
    """(track, spans) in display order. ``include``: keep tracks whose
    "process / thread" contains any of these substrings (case-insensitive);
    ``pipes=False`` drops core pipe tracks."""
    data: TraceData = as_trace_data(source)
    wanted = [w.lower() for w in include]
    by_track: dict[tuple[str, str], list] = {}
    for s in data.spans:
        label = f"{s.track[0]} / {s.track[1]}".lower()
        if wanted and not any(w in label for w in wanted):
            continue
        if not pipes and parse_core_track(s.track[1]) is not None:
            continue
        by_track.setdefault(s.track, []).append(s)
    order = sorted(by_track, key=lambda t: (process_sort_key(t[0]), thread_sort_key(t[1])))
    return [(t, by_track[t]) for t in order]


def _cells(spans: list, t0: float, width_ns: float, n: int) -> tuple[list[float], list[bool]]:
    cover = [0.0] * n
    mark = [False] * n
    for s in spans:
        a, b = max(s.start_ns, t0), min(end_ns(s), t0 + width_ns * n)
        if b < a:
            continue
        i0 = min(int((a - t0) / width_ns), n - 1)
        if b == a:
            mark[i0] = True
            continue
        i1 = min(int((b - t0) / width_ns), n - 1)
        for i in range(i0, i1 + 1):
            lo, hi = t0 + i * width_ns, t0 + (i + 1) * width_ns
            cover[i] += max(0.0, min(b, hi) - max(a, lo))
    return [c / width_ns for c in cover], mark


def text_timeline(source: Any, width: int = 100, include: Iterable[str] = (), pipes: bool = True) -> list[Text]:
    """Lines of a text timeline ``width`` characters wide: one row per track, each
    column a time bucket shaded by how busy the track is in it."""
    rows = select_tracks(source, include, pipes)
    if not rows:
        return [Text("no spans to show")]
    t0 = min(s.start_ns for _, spans in rows for s in spans)
    t1 = max(end_ns(s) for _, spans in rows for s in spans)
    labels = [f"{p} / {t}" for (p, t), _ in rows]
    label_w = min(max(len(x) for x in labels), 32)
    n = max(10, width - label_w - 3)
    bucket = (t1 - t0) / n if t1 > t0 else 1.0
    first, last = f"{t0:,.0f} ns", f"{t1:,.0f} ns"
    axis = Text(" " * (label_w + 2)) + Text(first + " " * max(1, n - len(first) - len(last)) + last, style="dim")
    lines = [axis, Text(" " * (label_w + 1) + "┌" + "─" * n + "┐", style="dim")]
    for (track, spans), label in zip(rows, labels):
        frac, mark = _cells(spans, t0, bucket, n)
        cells = "".join(SHADES[min(3, int(f * 4))] if f > 1e-9 else (ZERO_MARK if m else " ")
                        for f, m in zip(frac, mark))
        line = Text(label[:label_w].ljust(label_w) + " │", style="bold" if spans[0].cat != "pipe" else "")
        line.append(cells, style=track_color(track, spans[0].cat))
        line.append("│", style="dim")
        lines.append(line)
    lines.append(Text(" " * (label_w + 1) + "└" + "─" * n + "┘", style="dim"))
    lines.append(Text(f"{' ' * (label_w + 2)}one column = {bucket:,.1f} ns; shading = busy share "
                      f"(░ <25% ▒ <50% ▓ <75% █ ≥75%), {ZERO_MARK} = instant task", style="dim"))
    return lines


def plot_timeline(source: Any, out: str | Path, include: Iterable[str] = (), pipes: bool = True) -> Path:
    """Draw the per-track timeline to ``out`` (PNG, or any format matplotlib knows
    by suffix). Raises ImportError if matplotlib is not installed."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = select_tracks(source, include, pipes)
    fig, ax = plt.subplots(figsize=(14, max(2.0, 0.28 * len(rows) + 1.2)))
    try:
        for y, (track, spans) in enumerate(rows):
            color = track_color(track, spans[0].cat)
            bars = [(s.start_ns, s.dur_ns) for s in spans if s.dur_ns > 0]
            if bars:
                ax.broken_barh(bars, (y - 0.4, 0.8), facecolors=color, edgecolor="white", linewidth=0.4)
            zero = [s.start_ns for s in spans if s.dur_ns <= 0]
            if zero:
                ax.plot(zero, [y] * len(zero), "|", color="black", markersize=8)
        return save_gantt(fig, ax, [f"{p} / {t}" for (p, t), _ in rows], out)
    finally:
        plt.close(fig)


def save_gantt(fig, ax, labels: list[str], out: str | Path, legend: bool = False) -> Path:
    """Label the rows of a Gantt chart (top to bottom), add the time axis, and save it
    to ``out`` (120 dpi); returns the path. Shared by the PNG timeline and export."""
    ax.set_yticks(range(len(labels)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlabel("time (ns)")
    ax.grid(axis="x", alpha=0.3)
    if legend:
        ax.legend(loc="upper right", fontsize=7)
    fig.tight_layout()
    out = Path(out)
    fig.savefig(out, dpi=120)
    return out
