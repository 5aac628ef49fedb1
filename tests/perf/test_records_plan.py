"""``DictColumns``' per-layout plans (records.py ``_store``) store what ``_flatten``
alone stores: random dicts of repeated layouts (nested dicts, static values that stay
or stop being the same object, ints past 64 bits, lists, unpicklable lists, bools,
None) read back equal, with the same key order and value types."""
from __future__ import annotations

import json
import random

from npu_sim.records import DictColumns


def _rand_dict(rng, layout, static):
    out = {}
    for k, kind in layout:
        if kind == "f":
            out[k] = rng.choice([0.0, rng.random() * 1e6, -1.5])
        elif kind == "i":
            out[k] = rng.choice([0, rng.randint(-10, 10 ** 6), 1 << 70 if rng.random() < 0.05 else 7])
        elif kind == "s":
            out[k] = rng.choice(["a", "bound", "x" * 3])
        elif kind == "l":
            out[k] = rng.choice([[1, 2], [[1, 768]], (3, 4)])
        elif kind == "u":
            out[k] = [lambda: 0] if rng.random() < 0.1 else [5]
        elif kind == "o":
            out[k] = rng.choice([None, True, False])
        elif kind == "d":
            out[k] = {"MTE2": rng.random(), "n": rng.randint(0, 5), "s": "v"}
        elif kind == "t":   # from the static dict, usually the same object
            out[k] = static[k] if rng.random() < 0.9 else list(static[k])
    return out


def test_plans_store_what_flatten_stores():
    rng = random.Random(5)
    static = {"shapes": [[1, 768]], "tiling": {"a": 1, "b": 2.0}}
    layouts = [[("name", "s"), ("t0", "f"), ("n", "i"), ("shapes", "t"), ("x", "l"), ("busy", "d"), ("ok", "o")],
               [("a", "f"), ("b", "f"), ("nest", "d"), ("u", "u"), ("c", "i")],
               [("tiling", "t"), ("shapes", "t"), ("z", "f")]]
    cols = DictColumns()
    kept = []
    for _ in range(3000):
        lay = rng.choice(layouts)
        d = _rand_dict(rng, lay, static)
        st = static if any(kind == "t" for _, kind in lay) else None
        kept.append((cols.add(d, st), d))
    for idx, d in kept:
        got = cols.get(idx)
        assert got == d and list(got) == list(d)
        assert [type(v) for v in got.values()] == [type(v) if not isinstance(v, tuple) else tuple
                                                  for v in d.values()]
        try:
            assert json.dumps(got) == json.dumps(d)
        except TypeError:
            pass


def test_bulk_pipe_spans_equal_one_by_one(monkeypatch):
    """``SpanColumns.add_pipes`` (runs of pipe spans, as ``TraceRecorder.pack`` hands
    them over) stores what ``add_pipe`` one entry at a time stores, across spills."""
    import npu_sim.records as records
    monkeypatch.setattr(records, "SPILL_EVERY", 7)
    rng = random.Random(1)
    run = [(("device 0", f"AIV{rng.randint(0, 3)} MTE2"), "Add", rng.random() * 1e3, rng.random(), k,
            rng.choice([0, 512])) for k in range(60)]
    run[17] = (("device 0", "AIV0 MTE2"), "Add", 1, 2.0, 3, 4)   # an int start: kept as it is
    a, b = records.SpanColumns(), records.SpanColumns()
    for e in run:
        a.add_pipe(e)
    b.add_pipes(run)
    assert list(a.entries()) == list(b.entries()) == run
    assert len(a) == len(b) and a.pipe_count() == b.pipe_count()


def test_add_parts_stores_what_add_stores():
    """``add_parts(head, tail)`` (a shared tail, its layout cached) fills the columns
    exactly as ``add({**head, **tail})``, and the generated readers (``_builder``)
    return what the reference reader ``_build`` returns."""
    from npu_sim.records import _build, _builder
    rng = random.Random(7)
    static = {"shapes": [[1, 768]], "tiling": {"a": 1, "b": 2.0}}
    tail_layouts = [[("x", "l"), ("busy", "d"), ("ok", "o"), ("shapes", "t"), ("tiling", "t")],
                    [("a", "f"), ("nest", "d"), ("u", "u"), ("c", "i")], [("z", "f")]]
    tails = [_rand_dict(rng, lay, static) for lay in tail_layouts for _ in range(3)]
    ref, fast = DictColumns(), DictColumns()
    for _ in range(2000):
        tail = rng.choice(tails)
        head = {"name": rng.choice(["Add", "Mul"]), "stream": rng.randint(0, 3),
                "start_ns": rng.choice([0, rng.random() * 1e5]), "dur_ns": rng.random() * 1e3}
        st = static if rng.random() < 0.8 else None
        assert ref.add({**head, **tail}, st) == fast.add_parts(head, tail, st)
    assert ref._columns() == fast._columns()
    for k in range(len(ref)):
        assert fast.get(k) == ref.get(k) and list(fast.get(k)) == list(ref.get(k))
        (sid, st, f, i, o, fo, io, oo), j = ref._segment(k)
        shape = ref._shapes[sid[j]]
        assert _builder(shape)(f, i, o, fo[j], io[j], oo[j], ref._statics[st[j]]) == \
            _build(shape, f, i, o, [fo[j], io[j], oo[j]], ref._statics[st[j]])[0]
