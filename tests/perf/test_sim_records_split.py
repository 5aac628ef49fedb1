"""``DictColumns.add_parts``' split replay (records.py ``_TailSplit``: a shared tail's
column values worked out once, the head's leaves stored per call) fills the columns
exactly as ``add({**head, **tail})`` does, the reference (``_flatten`` and its plans):
tails with floats, ints, strings, pickled lists, nested dicts and static values, one
tail whose int does not fit 64 bits (an object leaf), heads whose int sometimes does
not fit (the split's fallback), with and without a static dict."""
from __future__ import annotations

import random

from npu_sim.records import DictColumns


def test_split_replay_stores_what_add_stores():
    rng = random.Random(11)
    static = {"shapes": [[1, 768]], "tiling": {"a": 1, "b": 2.0}}
    tails = [{"task_type": "AI_VECTOR_CORE", "x": [[1, 768]], "busy": {"MTE2": 1.5, "n": 3, "s": "v"},
              "ok": None, "shapes": static["shapes"], "hbm": 4096, "util": 0.25},
             {"a": 0.1, "c": 7, "bound": "memory", "tiling": static["tiling"]},
             {"z": 2.0, "big": 1 << 70}]
    ref, new = DictColumns(), DictColumns()
    for _ in range(1500):
        tail = rng.choice(tails)
        head = {"name": rng.choice(["Add", "Mul"]), "stream": 1 << 66 if rng.random() < 0.03 else rng.randint(0, 3),
                "start_ns": rng.random() * 1e5, "dur_ns": rng.random() * 1e3}
        st = static if rng.random() < 0.8 else None
        assert ref.add({**head, **tail}, st) == new.add_parts(head, tail, st)
    assert ref._columns() == new._columns()
    assert all(list(new.get(k)) == list(ref.get(k)) and new.get(k) == ref.get(k) for k in range(len(ref)))
    splits = [c[2] for hit in new._tails.values() for c in hit[3].values()]
    assert any(splits)   # a tail used again was split, and its split replayed
