"""The interval planner's sweeps (``acl_runtime.workspace_planner``: conflict bitsets,
best-fit over set bits, the O(n log n) ``verify_buffers``) give exactly what the
pairwise definitions give, on random buffer sets."""
from __future__ import annotations

import random

import pytest

from acl_runtime import workspace_planner as wp
from acl_runtime.workspace_planner import BufferPlan, BufferRequest


def _random_buffers(rng: random.Random, n: int, horizon: int = 30, zero_share: float = 0.1):
    out = []
    for k in range(n):
        lo = rng.randrange(horizon)
        hi = lo + rng.randint(1, 8)
        size = 0 if rng.random() < zero_share else rng.choice([1, 100, 512, 513, 2048, 4096, 10000])
        out.append(BufferRequest(("b", k), lo, hi, size))
    return out


def _pairwise_conflicts(bufs, live):
    """Bit j of c[i]: i != j both live and their half-open lifetimes intersect."""
    c = [0] * len(bufs)
    for i in live:
        for j in live:
            if i != j and bufs[i].lower < bufs[j].upper and bufs[j].lower < bufs[i].upper:
                c[i] |= 1 << j
    return c


def _reference_plan(bufs, alignment):
    """Best fit in the four orders plan_buffers documents, every test pairwise: (arena,
    offsets by id, order name) of the smallest arena (first order on ties)."""
    sizes = [-(-b.size_bytes // alignment) * alignment for b in bufs]
    live = [i for i, s in enumerate(sizes) if s]
    conflict = _pairwise_conflicts(bufs, live)
    cbytes = {i: sum(sizes[j] for j in live if conflict[i] >> j & 1) for i in live}
    orders = {
        "size": sorted(live, key=lambda i: (-sizes[i], bufs[i].lower, i)),
        "start": sorted(live, key=lambda i: (bufs[i].lower, -sizes[i], i)),
        "lifetime": sorted(live, key=lambda i: (bufs[i].lower - bufs[i].upper, -sizes[i], i)),
        "conflict_bytes": sorted(live, key=lambda i: (-cbytes[i] - sizes[i], i)),
    }
    best = None
    for name, order in orders.items():
        offsets, arena = {}, 0
        for i in order:
            busy = sorted((offsets[j], offsets[j] + sizes[j]) for j in offsets if conflict[i] >> j & 1)
            pick, pick_gap, cursor = None, None, 0
            for lo, hi in busy:
                if lo - cursor >= sizes[i] and (pick_gap is None or lo - cursor < pick_gap):
                    pick, pick_gap = cursor, lo - cursor
                cursor = max(cursor, hi)
            offsets[i] = cursor if pick is None else pick
            arena = max(arena, offsets[i] + sizes[i])
        if best is None or arena < best[0]:
            best = (arena, {bufs[i].buffer_id: o for i, o in offsets.items()}, name)
    return best


@pytest.mark.parametrize("seed", range(12))
def test_interval_conflicts_match_pairwise(seed):
    rng = random.Random(seed)
    bufs = _random_buffers(rng, rng.randint(0, 60))
    live = [i for i, b in enumerate(bufs) if b.size_bytes]
    assert wp._interval_conflicts(bufs, live) == _pairwise_conflicts(bufs, live)


def test_bits_lists_set_bits_in_order():
    assert list(wp._bits(0)) == []
    assert list(wp._bits(0b1011001)) == [0, 3, 4, 6]
    assert list(wp._bits(1 << 200 | 1 << 3)) == [3, 200]


@pytest.mark.parametrize("seed", range(8))
def test_plan_buffers_matches_pairwise_best_fit(seed):
    """More than EXACT_MAX_BUFFERS live buffers: the heuristic placement alone decides."""
    rng = random.Random(100 + seed)
    bufs = _random_buffers(rng, rng.randint(wp.EXACT_MAX_BUFFERS + 6, 70))
    alignment = rng.choice([1, 512])
    arena, offsets, name = _reference_plan(bufs, alignment)
    plan = wp.plan_buffers(bufs, alignment=alignment)
    assert (plan.arena_bytes, plan.order) == (arena, name)
    assert {k: v for k, v in plan.offsets.items() if plan.aligned_bytes[k]} == offsets


def _plan_with(bufs, offsets, alignment=1):
    aligned = {b.buffer_id: b.size_bytes for b in bufs}
    arena = max((offsets[b.buffer_id] + b.size_bytes for b in bufs), default=0)
    return BufferPlan(alignment=alignment, offsets=offsets, aligned_bytes=aligned, arena_bytes=arena,
                      lower_bound_bytes=0, naive_bytes=sum(aligned.values()), order="test",
                      order_arena_bytes={}, buffers=tuple(bufs))


def _first_pair(plan):
    """The first overlapping pair of live buffers, by the definition, or None."""
    bufs = [b for b in plan.buffers if plan.aligned_bytes[b.buffer_id]]
    for i, a in enumerate(bufs):
        a0, a1 = plan.offsets[a.buffer_id], plan.offsets[a.buffer_id] + plan.aligned_bytes[a.buffer_id]
        for b in bufs[i + 1:]:
            b0, b1 = plan.offsets[b.buffer_id], plan.offsets[b.buffer_id] + plan.aligned_bytes[b.buffer_id]
            if a.lower < b.upper and b.lower < a.upper and a0 < b1 and b0 < a1:
                return a.buffer_id, b.buffer_id
    return None


@pytest.mark.parametrize("seed", range(40))
def test_verify_buffers_sweep_matches_pairwise(seed):
    """Random placements, about half of them with an overlap: the sweep raises exactly
    when the pairwise definition finds a pair, and names the first pair."""
    rng = random.Random(1000 + seed)
    bufs = _random_buffers(rng, rng.randint(1, 25), horizon=12)
    plan = wp.plan_buffers(bufs)
    offsets = dict(plan.offsets)
    if seed % 2:   # disturb a few offsets: some of these plans overlap
        for b in rng.sample(bufs, k=min(3, len(bufs))):
            offsets[b.buffer_id] = rng.randrange(0, max(plan.arena_bytes, 1))
    plan = _plan_with(bufs, offsets)
    pair = _first_pair(plan)
    if pair is None:
        wp.verify_buffers(plan)
    else:
        with pytest.raises(AssertionError, match="overlap") as exc:
            wp.verify_buffers(plan)
        assert f"{pair[0]!r} [" in str(exc.value) and f"{pair[1]!r} [" in str(exc.value)


def test_verify_buffers_edges():
    """Touching byte ranges and touching lifetimes (an end at t, a start at t) do not
    overlap; one shared byte at one shared op does."""
    a, b = BufferRequest("a", 0, 2, 10), BufferRequest("b", 2, 4, 10)
    wp.verify_buffers(_plan_with([a, b], {"a": 0, "b": 0}))
    c = BufferRequest("c", 1, 3, 10)
    wp.verify_buffers(_plan_with([a, c], {"a": 0, "c": 10}))
    with pytest.raises(AssertionError, match="'a' \\[0, 10\\) and 'c' \\[9, 19\\) overlap"):
        wp.verify_buffers(_plan_with([a, c], {"a": 0, "c": 9}))
    empty = BufferRequest("e", 1, 1, 10)   # no lifetime (a hand-made plan): meets nothing
    wp.verify_buffers(_plan_with([a, empty], {"a": 0, "e": 0}))
