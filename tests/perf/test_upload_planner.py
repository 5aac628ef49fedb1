"""``workspace_planner._place`` (greedy best fit, its conflicting placed buffers read
off the bitset inline) against a plain reference written from its docstring: each
buffer, in order, goes into the smallest gap between the already-placed buffers it
conflicts with that holds it (lowest offset on ties), else on top of them. Same
offsets and arena on random conflict graphs; and ``plan_buffers``' quick check of
plain-int fields keeps the validation's rules (int subclasses accepted, bools refused)."""
from __future__ import annotations

import random

import pytest

from acl_runtime.workspace_planner import BufferRequest, _place, plan_buffers


def _reference_place(order, sizes, conflict):
    offsets = {}
    for i in order:
        busy = sorted((offsets[j], offsets[j] + sizes[j]) for j in offsets if conflict[i] >> j & 1)
        best = None
        cursor = 0
        for lo, hi in busy:
            if lo - cursor >= sizes[i] and (best is None or lo - cursor < best[1]):
                best = (cursor, lo - cursor)
            cursor = max(cursor, hi)
        offsets[i] = cursor if best is None else best[0]
    return offsets, max((offsets[i] + sizes[i] for i in offsets), default=0)


@pytest.mark.parametrize("seed", range(30))
def test_place_matches_reference(seed):
    rng = random.Random(seed)
    n = rng.randint(1, 60)
    sizes = [rng.choice((0, 512, 1024, 4096, 512 * rng.randint(1, 40))) for _ in range(n)]
    conflict = [0] * n
    for i in range(n):
        for j in range(i):
            if rng.random() < rng.choice((0.05, 0.3, 0.8)):
                conflict[i] |= 1 << j
                conflict[j] |= 1 << i
    order = list(range(n))
    rng.shuffle(order)
    assert _place(order, sizes, conflict) == _reference_place(order, sizes, conflict)


class _Int(int):
    """An int subclass: still an int to the validation."""


def test_plan_buffers_accepts_int_subclasses_and_rejects_bools():
    rng = random.Random(7)
    bufs = []
    for k in range(40):
        lo = rng.randint(0, 30)
        bufs.append(BufferRequest(k, lo, lo + rng.randint(1, 8), 512 * rng.randint(0, 9)))
    plain = plan_buffers(bufs, 512)
    sub = plan_buffers([BufferRequest(b.buffer_id, _Int(b.lower), b.upper, _Int(b.size_bytes)) for b in bufs], 512)
    assert (sub.offsets, sub.arena_bytes) == (plain.offsets, plain.arena_bytes)
    with pytest.raises(ValueError, match="upper must be an int"):
        plan_buffers([BufferRequest("x", 0, True, 8)])
