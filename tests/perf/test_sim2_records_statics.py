"""``DictColumns``' plans are shared by static dicts with the same keys (records.py: a
plan is keyed by the layout and the static's keys, its static leaves checked against
each call's own static): many static dicts of one layout, as every kernel spec's trace
args are, through ``add`` and ``add_parts`` (shared tails, repeated), with static
values that stop being the same object, a static with other keys and none; every
stored dict reads back equal to the dict given (the reference), key order and value
types included, across spills; the plans stay few."""
from __future__ import annotations

import json
import random

import npu_sim.records as records
from npu_sim.records import DictColumns


def _static(rng, k):
    s = {"shape": [[1, 8 * k]], "dtype": rng.choice(["float16", "float32"]), "attr": {"axis": k % 3}}
    if k % 7 == 6:
        s["extra"] = k   # other keys: a layout of its own
    return s


def _dict(rng, static, k):
    d = {"name": f"op{k % 5}", "start": rng.random() * 1e6, "dur": 1.5 * k}
    for key, v in static.items():
        d[key] = v if rng.random() < 0.9 else json.loads(json.dumps(v))   # usually the static's object
    d["busy"] = {"MTE2": rng.random(), "VECTOR": 2.0}
    d["n"] = k
    return d


def test_static_dicts_share_plans_and_read_back(monkeypatch):
    monkeypatch.setattr(records, "SPILL_EVERY", 97)
    rng = random.Random(11)
    cols = DictColumns()
    kept = []
    statics = [_static(rng, k) for k in range(60)]
    tails = []
    for it in range(1500):
        k = rng.randrange(len(statics))
        static = statics[k] if k % 11 else None
        if rng.random() < 0.5:
            d = _dict(rng, statics[k], k)
            kept.append((cols.add(d, static), d))
        else:
            if len(tails) < 40 or rng.random() < 0.3:
                tail = _dict(rng, statics[k], k)
                del tail["start"], tail["name"]
                tails.append((tail, static))
            tail, static = rng.choice(tails)
            head = {"name": f"h{it % 3}", "start": float(it)}
            kept.append((cols.add_parts(head, tail, static), {**head, **tail}))
    for idx, d in kept:
        got = cols.get(idx)
        assert got == d and list(got) == list(d)
        assert json.dumps(got) == json.dumps(d)
        assert [type(v) for v in got.values()] == [type(v) for v in d.values()]
    assert len(cols._plans) < 40
