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
