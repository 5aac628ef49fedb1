"""``npu-trace export --html``: one self-contained page (no network, no CDN).

The page holds the rows of ``npu-trace view`` (:func:`traces.view.build_rows`) as
inline JSON, a plain ``<canvas>`` timeline drawn by inline JavaScript, and the
summary tables (top ops, critical path, host/device). Mouse wheel zooms around the
pointer, dragging pans, ``+``/``-``/arrow keys zoom and pan, double-click resets;
hovering a span shows its row, category and times. Spans narrower than a pixel
merge into one pixel column per category, so big traces stay quick to redraw.

``#zoom=F`` (and ``&center=T``, ns) in the page's URL apply a zoom at load; the
page writes what it drew to ``<div id="status" data-rows data-drawn data-t0
data-t1>``, which the headless-browser test reads. Beyond :data:`MAX_SPANS` spans
the longest are kept (a note says so).
"""
from __future__ import annotations

import heapq
import html
import json
from pathlib import Path
from typing import Iterable

from .critical import critical_path
from .groups import host_device
from .analysis import op_summary
from .load import TraceData
from .view import MPL_COLOURS, build_rows

MAX_SPANS = 400_000

_JS = r"""
const D = JSON.parse(document.getElementById('data').textContent);
const cv = document.getElementById('tl'), ctx = cv.getContext('2d'), tip = document.getElementById('tip');
const LABEL = 220, ROW = 18, AXIS = 24;
let t0 = D.t0, t1 = D.t1;
function size() { cv.width = cv.parentElement.clientWidth; cv.height = AXIS + ROW * D.rows.length + 4; }
function xOf(t) { return LABEL + (t - t0) / (t1 - t0) * (cv.width - LABEL); }
function tOf(x) { return t0 + (x - LABEL) / (cv.width - LABEL) * (t1 - t0); }
function fmt(ns) { const a = Math.abs(ns);
  return a >= 1e9 ? (ns/1e9).toPrecision(4)+'s' : a >= 1e6 ? (ns/1e6).toPrecision(4)+'ms'
       : a >= 1e3 ? (ns/1e3).toPrecision(4)+'us' : ns.toPrecision(4)+'ns'; }
function lower(a, t) { let lo = 0, hi = a.length; while (lo < hi) { const m = (lo + hi) >> 1;
  if (a[m] < t) lo = m + 1; else hi = m; } return lo; }
function draw() {
  ctx.clearRect(0, 0, cv.width, cv.height); ctx.font = '11px monospace'; let drawn = 0;
  const want = (t1 - t0) * 90 / (cv.width - LABEL), p10 = Math.pow(10, Math.floor(Math.log10(want)));
  const step = [1, 2, 5, 10].map(m => m * p10).find(s => s >= want);   // ticks at least 90 px apart
  ctx.fillStyle = '#666'; ctx.strokeStyle = '#ddd';
  for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) { const x = xOf(t);
    ctx.beginPath(); ctx.moveTo(x, AXIS - 6); ctx.lineTo(x, cv.height); ctx.stroke(); ctx.fillText(fmt(t), x + 2, 12); }
  D.rows.forEach((r, y) => {
    const top = AXIS + y * ROW; ctx.fillStyle = '#222'; ctx.fillText(r.label.slice(-30), 4, top + 13);
    for (const [cat, p] of Object.entries(r.parts)) {
      ctx.fillStyle = D.colours[cat] || '#999';
      let i = Math.max(0, lower(p.m, t0)), lastX = -1, lastW = 0;
      for (; i < p.s.length && p.s[i] <= t1; i++) {
        if (p.e[i] < t0) continue;
        const x = Math.max(LABEL, xOf(p.s[i])), w = Math.max(1, xOf(Math.min(p.e[i], t1)) - x);
        if (Math.floor(x) === lastX && w <= 1) continue;   // sub-pixel spans: one column each
        ctx.fillRect(x, top + 2, w, ROW - 4); lastX = Math.floor(x); lastW = w; drawn++;
      }
    }
  });
  const st = document.getElementById('status');
  st.dataset.rows = D.rows.length; st.dataset.drawn = drawn; st.dataset.t0 = t0; st.dataset.t1 = t1;
  st.textContent = fmt(t0) + ' .. ' + fmt(t1) + ' | ' + drawn + ' rectangles | wheel: zoom, drag: pan, ' +
                   'double-click: reset';
}
function zoom(f, at) { const c = at === undefined ? (t0 + t1) / 2 : at;
  t0 = c - (c - t0) / f; t1 = c + (t1 - c) / f; draw(); }
function pan(dt) { t0 += dt; t1 += dt; draw(); }
cv.addEventListener('wheel', e => { e.preventDefault(); zoom(e.deltaY < 0 ? 1.25 : 0.8, tOf(e.offsetX)); });
let drag = null;
cv.addEventListener('mousedown', e => { drag = e.offsetX; });
window.addEventListener('mouseup', () => { drag = null; });
cv.addEventListener('mousemove', e => {
  if (drag !== null) { pan((drag - e.offsetX) / (cv.width - LABEL) * (t1 - t0)); drag = e.offsetX; return; }
  const y = Math.floor((e.offsetY - AXIS) / ROW), r = D.rows[y], t = tOf(e.offsetX); let hit = '';
  if (r) for (const [cat, p] of Object.entries(r.parts)) { const i = lower(p.m, t);
    if (i < p.s.length && p.s[i] <= t) hit = r.label + ': ' + (p.n[i] || cat) + ' [' + fmt(p.s[i]) + ', ' +
      fmt(p.e[i]) + ') ' + fmt(p.e[i] - p.s[i]); }
  tip.textContent = hit; });
cv.addEventListener('dblclick', () => { t0 = D.t0; t1 = D.t1; draw(); });
window.addEventListener('keydown', e => { const w = t1 - t0;
  if (e.key === '+' || e.key === '=') zoom(1.5); else if (e.key === '-') zoom(1 / 1.5);
  else if (e.key === 'ArrowLeft') pan(-w / 5); else if (e.key === 'ArrowRight') pan(w / 5); });
window.addEventListener('resize', () => { size(); draw(); });
size();
const h = new URLSearchParams(location.hash.slice(1));
if (h.get('zoom')) zoom(parseFloat(h.get('zoom')), h.get('center') ? parseFloat(h.get('center')) : undefined);
else draw();
"""


def _table(title: str, cols: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in cols)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in r) + "</tr>" for r in rows)
    return f"<h2>{html.escape(title)}</h2><table><tr>{head}</tr>{body}</table>"


def page(data: TraceData, tracks: Iterable[str] = ("streams", "cores"), collapse: bool = False,
         title: str = "trace") -> str:
    """The HTML text of the page (module docstring)."""
    keep = data.spans
    note = ""
    if len(keep) > MAX_SPANS:
        keep = heapq.nlargest(MAX_SPANS, keep, key=lambda s: s.dur_ns)   # = the stable sort, longest first
        note = f"<p>{len(data.spans):,} spans: the {MAX_SPANS:,} longest are drawn.</p>"
    rows = build_rows(TraceData(keep, [], data.metadata), tracks, collapse)
    out_rows = []
    lo, hi = float("inf"), float("-inf")
    for r in rows:
        parts = {}
        for cat, (st, en) in r.parts.items():
            order = sorted(range(len(st)), key=lambda i: st[i])
            s_sorted = [st[i] for i in order]
            e_sorted = [en[i] for i in order]
            # end times made non-decreasing so the page can binary-search the first visible span
            run = float("-inf")
            e_max = []
            for e in e_sorted:
                run = max(run, e)
                e_max.append(run)
            parts[cat] = {"s": s_sorted, "e": e_sorted, "m": e_max, "n": []}
            lo, hi = min(lo, s_sorted[0]), max(hi, e_max[-1])
        out_rows.append({"label": r.label, "parts": parts})
    if hi <= lo:
        hi = lo + 1.0
    blob = json.dumps({"rows": out_rows, "t0": lo, "t1": hi, "colours": MPL_COLOURS}).replace("</", "<\\/")
    ops = op_summary(data)[:15]
    cp = critical_path(data)
    hd = host_device(data)
    tables = _table("Top ops by device time", ["Op", "Type", "Calls", "Total (ns)", "Mean (ns)", "Min (ns)",
                                              "Max (ns)", "Share", "Bound"],
                    [[r["name"], r["task_type"], r["count"], f"{r['total_ns']:,.0f}", f"{r['mean_ns']:,.0f}",
                      f"{r['min_ns']:,.0f}", f"{r['max_ns']:,.0f}", f"{100 * r['share']:.1f}%",
                      r.get("bound") or "-"] for r in ops])
    tables += _table(f"Critical path ({cp['length_ns']:,.0f} ns)", ["Kind", "Op or wait", "Count", "Time (ns)",
                                                                   "Share"],
                     [[r["kind"], r["name"], r["count"], f"{r['dur_ns']:,.0f}", f"{100 * r['share']:.1f}%"]
                      for r in cp["by_name"][:15]])
    tables += _table("Host and device", list(hd), [[f"{v:,.0f}" for v in hd.values()]])
    legend = "".join(f'<span class="sw" style="background:{c}"></span>{html.escape(k)} '
                     for k, c in MPL_COLOURS.items() if any(k in r["parts"] for r in out_rows))
    return f"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>npu-trace: {html.escape(title)}</title>
<style>body{{font:13px sans-serif;margin:12px}} table{{border-collapse:collapse;margin-bottom:12px}}
td,th{{border:1px solid #ccc;padding:2px 6px;text-align:right}} td:first-child,th:first-child{{text-align:left}}
.sw{{display:inline-block;width:12px;height:12px;margin:0 3px 0 10px;vertical-align:middle}}
#tip{{height:16px;font-family:monospace;color:#333}} #wrap{{width:100%;border:1px solid #ddd}}</style></head>
<body><h1>npu-trace: {html.escape(title)}</h1>{note}<div>{legend}</div>
<div id="status"></div><div id="tip"></div><div id="wrap"><canvas id="tl"></canvas></div>
{tables}
<script id="data" type="application/json">{blob}</script>
<script>{_JS}</script></body></html>
"""


def write_html(data: TraceData, out: str | Path, tracks: Iterable[str] = ("streams", "cores"),
               collapse: bool = False, title: str = "trace") -> Path:
    """Write :func:`page` to ``out``; returns the path."""
    out = Path(out)
    out.write_text(page(data, tracks, collapse, title), encoding="utf-8")
    return out
