"""Bulk storage of span runs (``SpanColumns.add_spans``, used by
``TraceRecorder.pack``) stores exactly what ``add_span`` one by one stores: the same
columns, interned names in the same order, the same args dicts and kept objects,
spilled at the same boundaries; and block booking's plain-core branch
(``book_block`` with ``split`` 0) adds the same floats as the general loop."""
from __future__ import annotations

import pytest

from npu_sim import records
from npu_sim.hardware import block_book
from npu_sim.program import Pipe
from npu_sim.records import SpanColumns


def _spans():
    shared = {"a": 1.5, "b": "x"}
    out = []
    for k in range(40):
        args = [None, shared, {"k": k}, ("tuple", k)][k % 4]
        fid = [None, k, 1 << 70, None][k % 4] if k % 7 else None
        start = float(k) if k % 11 else k          # an int start: kept as it is
        out.append((("device 0", f"stream {k % 3}"), f"op{k % 5}", start, 2.5 * k, "task" if k % 2 else "host",
                    args, fid, bool(k % 2)))
    return out


def _state(cols: SpanColumns):
    return (cols._cols(), cols.objs, cols._names, list(cols.entries()), len(cols.args), cols._spilled)


@pytest.mark.parametrize("spill", [1 << 14, 7])
@pytest.mark.parametrize("valid", [True, False])
def test_add_spans_equals_add_span(monkeypatch, spill, valid):
    monkeypatch.setattr(records, "SPILL_EVERY", spill)
    spans = [s for s in _spans() if not valid or (type(s[2]) is float and (s[6] is None or s[6] < 1 << 63))]
    one, bulk = SpanColumns(), SpanColumns()
    c1, c2 = {}, {}
    for s in spans:
        one.add_span(*s, c1)
    flat = []
    for s in spans:
        flat.append(None)
        flat.extend(s)
    bulk.add_spans(flat, c2)
    assert _state(one) == _state(bulk)


class _Stats:
    def __init__(self):
        self.busy, self.fixed, self.core_ns, self.blocks = {}, {}, {}, {}
        self.hbm_bytes = self.l2_hit_bytes = self.writeback_bytes = self.gm_bytes = 0


def test_book_block_plain_core_equals_general(monkeypatch):
    pipes = (Pipe.MTE2, Pipe.VECTOR, Pipe.MTE3)
    calls = [((0.1, 0.7, 1e-9), (0.3, 0.0, 0.2), 0.05, 10, 3, 0, 13, 1.3),
             ((2.2, -0.0, 1e300), (0.0, 0.1, 0.2), 0.0, 1, 0, 0, 1, 0.1)]
    a, b = _Stats(), _Stats()
    for c in calls:
        block_book.book_block(a, pipes, *c[:2], *c[2:], 0, "AIV")
    general = block_book.book_block

    def no_branch(stats, pipes, busy_pipe, fixed_pipe, scalar, hbm, l2, wb, gm, span, split, unit):
        # the general loop: split 0 forced through the MIX-capable path (k = 1 everywhere)
        busy, fixed = stats.busy, stats.fixed
        for s, p in enumerate(pipes):
            busy[p] = busy.get(p, 0.0) + 1 * busy_pipe[s]
            fixed[p] = fixed.get(p, 0.0) + 1 * fixed_pipe[s]
        if scalar:
            busy[Pipe.SCALAR] = busy.get(Pipe.SCALAR, 0.0) + scalar
            fixed[Pipe.SCALAR] = fixed.get(Pipe.SCALAR, 0.0) + scalar
        stats.hbm_bytes += hbm
        stats.l2_hit_bytes += l2
        stats.writeback_bytes += wb
        stats.gm_bytes += gm
        stats.core_ns[unit] = stats.core_ns.get(unit, 0.0) + 1 * span
        stats.blocks[unit] = stats.blocks.get(unit, 0) + 1
    for c in calls:
        no_branch(b, pipes, *c[:2], *c[2:], 0, "AIV")
    assert general is block_book.book_block
    assert vars(a) == vars(b)
    assert [list(d) for d in (a.busy, a.fixed)] == [list(d) for d in (b.busy, b.fixed)]
