"""Global workspace planner (DESIGN.md section 7): pure planning over plain data.

Prepared executors know their workspace sizes before any data exists, so the runtime
can place every op's workspace in one device arena ahead of time. Inputs, in host
enqueue order:

* ``WorkspaceRequest(op_id, stream, size_bytes)`` per launched op (size 0 allowed: the
  op still orders other ops but needs no workspace);
* happens-before edges ``(before_op, after_op)``: "``after_op`` starts only after
  ``before_op`` finished", i.e. an ``aclrtRecordEvent`` after ``before_op`` on its stream
  and an ``aclrtStreamWaitEvent`` before ``after_op`` on another. ``EnqueueLog`` derives
  them from record/wait calls as the runtime sees them.

Happens-before is program order within a stream plus the edges, transitively closed
(one Python int per op as an ancestor bitset). Each op's workspace lives exactly while
its op runs, so two workspaces conflict unless one op happens before the other; ops on
one stream never conflict. Placement is greedy best fit in several orders (size,
start order, conflict degree), keeping the smallest arena, as XLA's heap simulator does;
when that is above the lower bound and at most ``EXACT_MAX_BUFFERS`` buffers need room,
an exact branch and bound over placement orders (bounded by a node count, so the output
stays deterministic) replaces it when it does better.

``plan_buffers`` is the same placement for the interchange format of static memory
planners (``id, lower, upper, size``: half-open op lifetimes), used by ``npu-sim
plan-memory`` and by the captured-graph plan.

Reported, all over sizes rounded up to ``alignment``: the arena, the lower bound (the
largest total of workspaces that can be live at once = the maximum-weight antichain of
the happens-before order, solved exactly as a max-flow with ``scipy``) and the naive
one-buffer-each total. No device, no SimPy; errors are ``ValueError``.

Longer than 300 lines on purpose: both front doors (happens-before workspaces and
interval buffers) share one placement core, which is easier to trust in one file.
"""
from __future__ import annotations

import bisect
import graphlib
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Iterator, Sequence

#: Default offset/size granularity of arena placements (bytes). Assumption: 512 B keeps
#: every workspace start friendly to GM->L1/L0A/L0B bursts (a multiple of the 32 B
#: block and of a 512 B fractal of fp16 16x16); aclrtMalloc itself only guarantees
#: 64 B (DESIGN.md section 6), so the arena base is assumed 512 B aligned too.
DEFAULT_ALIGNMENT_BYTES = 512

_INT32_MAX = 2**31 - 1


@dataclass(frozen=True)
class WorkspaceRequest:
    """One launched op's workspace need.

    op_id: any hashable, unique per plan. stream: any hashable naming the stream the op
    is launched on. size_bytes: workspace size in bytes (int >= 0), as returned by the
    op's ``aclnnXxxGetWorkspaceSize``.
    """

    op_id: Hashable
    stream: Hashable
    size_bytes: int


def _align_up(n: int, alignment: int) -> int:
    return -(-n // alignment) * alignment


@dataclass
class _Placement:
    """What both plans report (bytes): offsets (id -> offset, a multiple of
    ``alignment``), aligned sizes, the arena, the lower bound, the naive one-buffer-each
    total, the placement order kept and the arena of every order tried."""

    alignment: int
    offsets: dict[Hashable, int]
    aligned_bytes: dict[Hashable, int]
    arena_bytes: int
    lower_bound_bytes: int
    naive_bytes: int
    order: str
    order_arena_bytes: dict[str, int]


@dataclass
class WorkspacePlan(_Placement):
    """Result of ``plan_workspaces``. All sizes and offsets in bytes.

    offsets: op_id -> byte offset into the arena (multiple of ``alignment``; 0 for ops
    with no workspace). arena_bytes: arena size needed. lower_bound_bytes: largest total
    of aligned workspaces that can be live at once (no placement can beat it).
    naive_bytes: sum of all aligned workspaces (one buffer each). peak_ops: op ids of one
    set of pairwise concurrent ops reaching the lower bound. order: name of the
    placement order kept; order_arena_bytes: arena per order tried.
    """

    requests: tuple[WorkspaceRequest, ...] = ()
    peak_ops: tuple[Hashable, ...] = ()
    _index: dict[Hashable, int] = field(default_factory=dict, repr=False)
    _ancestors: list[int] = field(default_factory=list, repr=False)

    def happens_before(self, a: Hashable, b: Hashable) -> bool:
        """True when op ``a`` finishes before op ``b`` starts (transitively). KeyError on
        an unknown op id."""
        return bool(self._ancestors[self._index[b]] >> self._index[a] & 1)

    def conflicts(self, a: Hashable, b: Hashable) -> bool:
        """True when the workspaces of ``a`` and ``b`` may be live at the same time (both
        non-empty and neither op happens before the other)."""
        if a == b or not self.aligned_bytes[a] or not self.aligned_bytes[b]:
            return False
        return not (self.happens_before(a, b) or self.happens_before(b, a))

    def report(self) -> list[tuple[str, str]]:
        """Summary rows ``(metric, value)`` for a two-column rich table."""
        n_ws = sum(1 for r in self.requests if r.size_bytes)
        streams = {r.stream for r in self.requests}

        def ratio(a: int, b: int) -> str:
            return f"{a / b:.3f}" if b else "-"

        rows = [
            ("ops (with workspace)", f"{len(self.requests)} ({n_ws})"),
            ("streams", str(len(streams))),
            ("alignment_bytes", str(self.alignment)),
            ("arena_bytes", str(self.arena_bytes)),
            ("lower_bound_bytes", str(self.lower_bound_bytes)),
            ("naive_bytes", str(self.naive_bytes)),
            ("arena / lower bound", ratio(self.arena_bytes, self.lower_bound_bytes)),
            ("naive / arena", ratio(self.naive_bytes, self.arena_bytes)),
            ("order kept", self.order),
        ]
        rows += [(f"arena_bytes[{name}]", str(v)) for name, v in self.order_arena_bytes.items()]
        return rows

    def buffer_rows(self) -> list[tuple[str, str, str, str, str]]:
        """Per-op rows ``(op_id, stream, size_bytes, offset, end)`` in enqueue order, as
        strings (end = offset + aligned size; '-' for ops without workspace)."""
        out = []
        for r in self.requests:
            a = self.aligned_bytes[r.op_id]
            off = self.offsets[r.op_id]
            out.append((str(r.op_id), str(r.stream), str(r.size_bytes),
                        str(off) if a else "-", str(off + a) if a else "-"))
        return out


def verify_plan(plan: WorkspacePlan) -> None:
    """Raise ``AssertionError`` naming the first problem if two conflicting workspaces
    overlap, an offset is misaligned or a workspace runs past ``arena_bytes``.
    O(n^2) in the number of ops."""
    live = [r.op_id for r in plan.requests if plan.aligned_bytes[r.op_id]]
    for a in live:
        off, size = plan.offsets[a], plan.aligned_bytes[a]
        if off % plan.alignment:
            raise AssertionError(f"op {a!r}: offset {off} is not a multiple of {plan.alignment}")
        if off < 0 or off + size > plan.arena_bytes:
            raise AssertionError(f"op {a!r}: [{off}, {off + size}) outside arena of {plan.arena_bytes} B")
    for i, a in enumerate(live):
        a0, a1 = plan.offsets[a], plan.offsets[a] + plan.aligned_bytes[a]
        for b in live[i + 1:]:
            b0, b1 = plan.offsets[b], plan.offsets[b] + plan.aligned_bytes[b]
            if a0 < b1 and b0 < a1 and plan.conflicts(a, b):
                raise AssertionError(f"concurrent ops {a!r} [{a0}, {a1}) and {b!r} [{b0}, {b1}) overlap")


def _validate(requests: Sequence[WorkspaceRequest], edges, alignment: int):
    if isinstance(alignment, bool) or not isinstance(alignment, int) or alignment <= 0:
        raise ValueError(f"alignment must be a positive int (bytes), got {alignment!r}")
    index: dict[Hashable, int] = {}
    for r in requests:
        if not isinstance(r, WorkspaceRequest):
            raise ValueError(f"expected WorkspaceRequest, got {r!r}")
        if isinstance(r.size_bytes, bool) or not isinstance(r.size_bytes, int):
            raise ValueError(f"op {r.op_id!r}: size_bytes must be an int, got {r.size_bytes!r}")
        if r.size_bytes < 0:
            raise ValueError(f"op {r.op_id!r}: negative size_bytes {r.size_bytes}")
        if r.op_id in index:
            raise ValueError(f"duplicate op id {r.op_id!r}")
        index[r.op_id] = len(index)
    pairs = []
    for e in edges:
        if not isinstance(e, tuple) or len(e) != 2:
            raise ValueError(f"edge must be a (before_op, after_op) pair, got {e!r}")
        for op in e:
            if op not in index:
                raise ValueError(f"edge {e[0]!r} -> {e[1]!r} names unknown op id {op!r}")
        pairs.append((index[e[0]], index[e[1]]))
    return index, pairs


def _ancestors(requests, pairs) -> list[int]:
    """Ancestor bitset per op (bit i set in anc[j] <=> op i happens before op j)."""
    preds: dict[int, set[int]] = {i: set() for i in range(len(requests))}
    last_on_stream: dict[Hashable, int] = {}
    for i, r in enumerate(requests):
        if r.stream in last_on_stream:
            preds[i].add(last_on_stream[r.stream])
        last_on_stream[r.stream] = i
    for a, b in pairs:
        preds[b].add(a)
    try:
        topo = list(graphlib.TopologicalSorter(preds).static_order())
    except graphlib.CycleError as exc:
        cycle = " -> ".join(repr(requests[i].op_id) for i in exc.args[1])
        raise ValueError(f"happens-before edges (with stream order) form a cycle: {cycle}") from None
    anc = [0] * len(requests)
    for j in topo:
        m = 0
        for p in preds[j]:
            m |= anc[p] | (1 << p)
        anc[j] = m
    return anc


def _lower_bound(sizes: list[int], live: list[int], anc: list[int]):
    """Maximum-weight antichain of the happens-before order over ``live`` ops (bytes,
    op indices), by weighted Dilworth: min chain cover = total - max flow in the
    bipartite network s -> u_out (w) -> v_in (inf, for u < v) -> t (w)."""
    import numpy as np
    from math import gcd
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import maximum_flow

    if not live:
        return 0, ()
    g = 0
    for i in live:
        g = gcd(g, sizes[i])
    units = [sizes[i] // g for i in live]
    total = sum(units)
    if total + 1 > _INT32_MAX:
        raise ValueError(f"lower bound: {total * g} B of workspace in {g} B units exceeds the "
                         "int32 capacities of scipy's max-flow solver")
    n = len(live)
    s, t = 2 * n, 2 * n + 1
    rows, cols, caps = [], [], []
    pos = {op: k for k, op in enumerate(live)}
    for k, op in enumerate(live):
        rows += [s, n + k]
        cols += [k, t]
        caps += [units[k], units[k]]
        a = anc[op]
        for u in live:
            if a >> u & 1:
                rows.append(pos[u])
                cols.append(n + k)
                caps.append(total + 1)
    cap = csr_matrix((np.array(caps, dtype=np.int32), (rows, cols)), shape=(2 * n + 2, 2 * n + 2))
    res = maximum_flow(cap, s, t, method="dinic")
    # Source side of the min cut: reachable from s in the residual graph.
    residual = (cap - res.flow).tocsr()
    residual.eliminate_zeros()
    seen = np.zeros(2 * n + 2, dtype=bool)
    seen[s] = True
    stack = [s]
    indptr, indices, data = residual.indptr, residual.indices, residual.data
    while stack:
        x = stack.pop()
        for y, c in zip(indices[indptr[x]:indptr[x + 1]], data[indptr[x]:indptr[x + 1]]):
            if c > 0 and not seen[y]:
                seen[y] = True
                stack.append(int(y))
    peak = tuple(live[k] for k in range(n) if seen[k] and not seen[n + k])
    return (total - int(res.flow_value)) * g, peak


def _bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask`` (an int >= 0), lowest first. Costs
    O(set bits x width) instead of one test per candidate index."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _first_fit(size: int, offsets: dict[int, int], sizes: list[int], conflict_i: int) -> int:
    """Lowest offset where ``size`` bytes fit between the placed workspaces that
    conflict (bitset ``conflict_i``) with the one being placed."""
    cursor = 0
    for lo, hi in sorted((offsets[j], offsets[j] + sizes[j]) for j in offsets if conflict_i >> j & 1):
        if lo - cursor >= size:
            return cursor
        cursor = max(cursor, hi)
    return cursor


def _place(order: list[int], sizes: list[int], conflict: list[int]) -> tuple[dict[int, int], int]:
    """Greedy best fit: each op goes into the smallest gap between already-placed
    conflicting workspaces that holds it (lowest offset on ties), else on top of them."""
    offsets: dict[int, int] = {}
    placed = 0   # bitset of the ops in offsets
    arena = 0
    for i in order:
        size = sizes[i]
        m = conflict[i] & placed
        off = 0   # nothing placed conflicts: the bottom
        if m:
            busy = []   # (offset, end) of the placed conflicting ones (the set bits of m, as _bits)
            while m:
                low = m & -m
                j = low.bit_length() - 1
                o = offsets[j]
                busy.append((o, o + sizes[j]))
                m ^= low
            busy.sort()
            best, best_gap, cursor = None, None, 0
            for lo, hi in busy:
                gap = lo - cursor
                if gap >= size and (best_gap is None or gap < best_gap):
                    best, best_gap = cursor, gap
                if hi > cursor:
                    cursor = hi
            off = cursor if best is None else best
        offsets[i] = off
        placed |= 1 << i
        if off + size > arena:
            arena = off + size
    return offsets, arena


#: Exact search limits: at most this many live buffers, and this many search nodes
#: (a node = one buffer tried at one depth; a count, not a clock, so plans are
#: deterministic). Beyond either, the best heuristic placement is kept.
EXACT_MAX_BUFFERS = 14
EXACT_NODE_BUDGET = 40_000


def _exact(live: list[int], sizes: list[int], conflict: list[int], best_arena: int, lower: int,
           budget: int = EXACT_NODE_BUDGET):
    """Branch and bound over placement orders with lowest first fit.

    Why it is exact: take an optimal placement and place its buffers in increasing
    optimal offset; first fit puts each at or below its optimal offset (every conflicting
    buffer already placed ends at or below it), so some order reaches the optimum.
    Pruning: first-fit offsets only rise as buffers are added, so ``max(first fit end)``
    over the unplaced buffers bounds any completion from below. Returns
    ``(offsets | None, arena, complete)``: offsets only when strictly better than
    ``best_arena``; complete=False when the node budget ran out."""
    best = [best_arena, None]
    nodes = 0
    offsets: dict[int, int] = {}
    remaining = sorted(live, key=lambda i: (-sizes[i], i))

    def dfs(arena: int) -> bool:
        nonlocal nodes
        if not remaining:
            if arena < best[0]:
                best[0], best[1] = arena, dict(offsets)
            return True
        fits = [(_first_fit(sizes[i], offsets, sizes, conflict[i]), i) for i in remaining]
        if max(max(off + sizes[i] for off, i in fits), arena) >= best[0]:
            return True
        seen: set[tuple[int, int]] = set()
        for off, i in fits:
            if best[0] <= lower:
                return True
            key = (off, sizes[i])  # same size at the same offset: same layout
            if key in seen and conflict[i] == 0:
                continue
            seen.add(key)
            nodes += 1
            if nodes > budget:
                return False
            remaining.remove(i)
            offsets[i] = off
            ok = dfs(max(arena, off + sizes[i]))
            del offsets[i]
            remaining.append(i)
            remaining.sort(key=lambda k: (-sizes[k], k))
            if not ok:
                return False
        return True

    complete = dfs(0)
    return best[1], best[0], complete


def _best_placement(live: list[int], sizes: list[int], conflict: list[int], orders: dict[str, list[int]],
                    lower: int):
    """Best fit in each order, the smallest arena kept (first order on ties); then, when
    that is above ``lower`` and the problem is small, the exact search. Returns
    ``(offsets, arena, order_name, per_order, optimal)``; per_order has an ``exact``
    entry when the search ran; optimal says the arena is proven minimal."""
    best_name, best_offsets, best_arena, per_order = None, {}, 0, {}
    for name, order in orders.items():
        offs, arena = _place(order, sizes, conflict)
        per_order[name] = arena
        if best_name is None or arena < best_arena:
            best_name, best_offsets, best_arena = name, offs, arena
    optimal = best_arena <= lower
    if not optimal and len(live) <= EXACT_MAX_BUFFERS:
        offs, arena, complete = _exact(live, sizes, conflict, best_arena, lower)
        per_order["exact"] = arena
        if offs is not None:
            best_name, best_offsets, best_arena = "exact", offs, arena
        optimal = complete or arena <= lower
    return best_offsets, best_arena, best_name or "size", per_order, optimal


def plan_workspaces(requests: Iterable[WorkspaceRequest],
                    edges: Iterable[tuple[Hashable, Hashable]] = (),
                    alignment: int = DEFAULT_ALIGNMENT_BYTES) -> WorkspacePlan:
    """Place every op's workspace in one arena.

    requests: ``WorkspaceRequest``s in host enqueue order (gives program order per
    stream). edges: ``(before_op, after_op)`` op-id pairs, ``after_op`` starts after
    ``before_op`` finished (an event record -> stream wait). alignment: offset and size
    granularity in bytes (default 512, see ``DEFAULT_ALIGNMENT_BYTES``).

    Returns a verified ``WorkspacePlan``. Raises ``ValueError`` on a non-positive
    alignment, a non-int or negative size, a duplicate op id, a malformed edge, an edge
    naming an unknown op id, or edges that with stream order form a cycle (message names
    the cycle). Cost: O(n^2) bitset work for n ops plus one max-flow.
    """
    requests = tuple(requests)
    index, pairs = _validate(requests, edges, alignment)
    anc = _ancestors(requests, pairs)
    sizes = [_align_up(r.size_bytes, alignment) for r in requests]
    live = [i for i, s in enumerate(sizes) if s]
    live_mask = sum(1 << i for i in live)
    # desc[i]: ops that i happens before; conflict = live ops neither before nor after.
    desc = [0] * len(requests)
    for j, a in enumerate(anc):
        x = a
        while x:
            low = x & -x
            desc[low.bit_length() - 1] |= 1 << j
            x ^= low
    conflict = [0] * len(requests)
    for i in live:
        conflict[i] = live_mask & ~(anc[i] | desc[i] | (1 << i))
    degree = {i: bin(conflict[i]).count("1") for i in live}
    orders = {
        "size": sorted(live, key=lambda i: (-sizes[i], i)),
        "start": list(live),
        "conflict_degree": sorted(live, key=lambda i: (-degree[i], -sizes[i], i)),
        "conflict_bytes": sorted(live, key=lambda i: (-sum(sizes[j] for j in _bits(conflict[i])) - sizes[i], i)),
    }
    lower, peak = _lower_bound(sizes, live, anc)
    best_offsets, best_arena, best_name, per_order, _ = _best_placement(live, sizes, conflict, orders, lower)
    plan = WorkspacePlan(
        requests=requests, alignment=alignment,
        offsets={r.op_id: best_offsets.get(i, 0) for i, r in enumerate(requests)},
        aligned_bytes={r.op_id: sizes[i] for i, r in enumerate(requests)},
        arena_bytes=best_arena, lower_bound_bytes=lower, naive_bytes=sum(sizes),
        peak_ops=tuple(requests[i].op_id for i in peak), order=best_name,
        order_arena_bytes=per_order, _index=index, _ancestors=anc)
    verify_plan(plan)
    return plan


class EnqueueLog:
    """Records launches and event calls in host enqueue order and turns them into
    requests and happens-before edges for ``plan_workspaces``.

    Semantics (CANN: aclrtStreamWaitEvent waits for the event's latest record enqueued
    before the wait call): ``record_event(e, s)`` captures everything enqueued on ``s``
    so far (the last op, plus what ``s`` itself waited for since); ``stream_wait_event
    (t, e)`` makes every later op on ``t`` follow that capture. Waiting on an event never
    recorded adds no ordering (assumption: conservative, the planner then keeps the
    workspaces apart).
    """

    def __init__(self) -> None:
        self.requests: list[WorkspaceRequest] = []
        self.edges: list[tuple[Hashable, Hashable]] = []
        self._last: dict[Hashable, Hashable] = {}
        self._pending: dict[Hashable, set] = {}
        self._events: dict[Hashable, frozenset] = {}

    def launch(self, op_id: Hashable, stream: Hashable, size_bytes: int) -> None:
        """An op with ``size_bytes`` of workspace launched on ``stream``."""
        self.requests.append(WorkspaceRequest(op_id, stream, size_bytes))
        for src in sorted(self._pending.pop(stream, ()), key=repr):
            self.edges.append((src, op_id))
        self._last[stream] = op_id

    def record_event(self, event: Hashable, stream: Hashable) -> None:
        """aclrtRecordEvent(event, stream)."""
        cap = set(self._pending.get(stream, ()))
        if stream in self._last:
            cap.add(self._last[stream])
        self._events[event] = frozenset(cap)

    def stream_wait_event(self, stream: Hashable, event: Hashable) -> None:
        """aclrtStreamWaitEvent(stream, event)."""
        self._pending.setdefault(stream, set()).update(self._events.get(event, ()))

    def plan(self, alignment: int = DEFAULT_ALIGNMENT_BYTES) -> WorkspacePlan:
        """``plan_workspaces`` over what was logged."""
        return plan_workspaces(self.requests, self.edges, alignment)


# ----------------------------------------------------------------------------- interval buffers
@dataclass(frozen=True)
class BufferRequest:
    """One buffer of the static-memory-planning interchange format: live over the
    half-open op interval ``[lower, upper)`` (ints, lower < upper), ``size_bytes`` >= 0."""

    buffer_id: Hashable
    lower: int
    upper: int
    size_bytes: int


@dataclass
class BufferPlan(_Placement):
    """Result of ``plan_buffers`` (bytes; fields as in ``_Placement``). lower_bound_bytes:
    largest total of aligned sizes live at one op; optimal: the arena is proven minimal
    (equals the bound, or the exact search ran to the end)."""

    buffers: tuple[BufferRequest, ...] = ()
    optimal: bool = False


def _interval_conflicts(bufs: Sequence[BufferRequest], live: list[int]) -> list[int]:
    """Conflict bitset per buffer index: bit j of ``conflict[i]`` set when buffers i
    and j (both in ``live``, i != j) have intersecting half-open lifetimes, i.e.
    ``lower_i < upper_j`` and ``lower_j < upper_i``. Two sweeps over the lifetimes
    sorted by ``lower`` and by ``upper`` (O(n log n) comparisons plus O(n) bitset
    operations of n bits) instead of a test per pair."""
    conflict = [0] * len(bufs)
    by_lower = sorted(live, key=lambda j: bufs[j].lower)
    by_upper = sorted(live, key=lambda j: bufs[j].upper)
    live_mask = 0
    for j in live:
        live_mask |= 1 << j
    # upper_j > lower_i: every live buffer but those ending at or before lower_i
    ended, k = 0, 0
    for i in by_lower:
        while k < len(by_upper) and bufs[by_upper[k]].upper <= bufs[i].lower:
            ended |= 1 << by_upper[k]
            k += 1
        conflict[i] = live_mask & ~ended
    # lower_j < upper_i: the buffers started before upper_i
    started, k = 0, 0
    for i in by_upper:
        while k < len(by_lower) and bufs[by_lower[k]].lower < bufs[i].upper:
            started |= 1 << by_lower[k]
            k += 1
        conflict[i] &= started & ~(1 << i)
    return conflict


def _overlap_pair(plan: BufferPlan, bufs: list[BufferRequest]) -> tuple | None:
    """The first pair (in ``bufs`` order) of buffers live at one op whose byte ranges
    overlap, as ``(a, [a0, a1), b, [b0, b1))``, or None. O(n^2): the reference check
    :func:`verify_buffers` runs only to name the pair its sweep found."""
    for i, a in enumerate(bufs):
        a0 = plan.offsets[a.buffer_id]
        a1 = a0 + plan.aligned_bytes[a.buffer_id]
        for b in bufs[i + 1:]:
            b0 = plan.offsets[b.buffer_id]
            b1 = b0 + plan.aligned_bytes[b.buffer_id]
            if a.lower < b.upper and b.lower < a.upper and a0 < b1 and b0 < a1:
                return a.buffer_id, (a0, a1), b.buffer_id, (b0, b1)
    return None


def _sweep_finds_overlap(plan: BufferPlan, bufs: list[BufferRequest]) -> bool:
    """Whether two buffers live at one op overlap in bytes: a sweep over lifetime
    events (an end at op t before a start at t, lifetimes being half-open) keeping the
    live byte ranges sorted by offset. Those ranges are disjoint until the first
    overlap, so a new range overlaps some live one exactly when it overlaps its
    neighbour below or above. O(n log n) comparisons. An empty lifetime (lower >=
    upper) meets no other buffer."""
    live = [k for k, b in enumerate(bufs) if b.lower < b.upper]
    events = sorted([(bufs[k].lower, 1, k) for k in live] + [(bufs[k].upper, 0, k) for k in live])
    ranges = [(plan.offsets[b.buffer_id], plan.offsets[b.buffer_id] + plan.aligned_bytes[b.buffer_id])
              for b in bufs]
    active: list[tuple[int, int]] = []   # live (start, end) byte ranges, sorted
    for _, start, k in events:
        r = ranges[k]
        if not start:
            del active[bisect.bisect_left(active, r)]
            continue
        p = bisect.bisect_left(active, r)
        if (p > 0 and active[p - 1][1] > r[0]) or (p < len(active) and active[p][0] < r[1]):
            return True
        active.insert(p, r)
    return False


def verify_buffers(plan: BufferPlan) -> None:
    """Raise ``AssertionError`` naming the first pair of buffers live at the same op
    whose ranges overlap, or a misaligned / out-of-arena buffer. O(n log n) for a
    valid plan (:func:`_sweep_finds_overlap`); the pairwise scan names the pair."""
    bufs = [b for b in plan.buffers if plan.aligned_bytes[b.buffer_id]]
    for b in bufs:
        off = plan.offsets[b.buffer_id]
        if off % plan.alignment or off < 0 or off + plan.aligned_bytes[b.buffer_id] > plan.arena_bytes:
            raise AssertionError(f"buffer {b.buffer_id!r}: offset {off} misaligned or outside the arena")
    if _sweep_finds_overlap(plan, bufs):
        a, (a0, a1), b, (b0, b1) = _overlap_pair(plan, bufs)
        raise AssertionError(f"live buffers {a!r} [{a0}, {a1}) and {b!r} [{b0}, {b1}) overlap")


def plan_buffers(buffers: Iterable[BufferRequest], alignment: int = 1) -> BufferPlan:
    """Place buffers with known op lifetimes in one arena (two buffers conflict when
    their half-open lifetimes intersect). Same placement as ``plan_workspaces``: best
    fit in several orders, smallest kept, exact branch and bound for at most
    ``EXACT_MAX_BUFFERS`` buffers. Deterministic. alignment: bytes (default 1 = sizes
    as given; the runtime uses ``DEFAULT_ALIGNMENT_BYTES``). Raises ``ValueError`` on a
    bad alignment, a non-int field, a negative size, lower >= upper or a duplicate id."""
    bufs = tuple(buffers)
    if isinstance(alignment, bool) or not isinstance(alignment, int) or alignment <= 0:
        raise ValueError(f"alignment must be a positive int (bytes), got {alignment!r}")
    seen: set = set()
    for b in bufs:
        if not (b.lower.__class__ is int and b.upper.__class__ is int and b.size_bytes.__class__ is int):
            for name in ("lower", "upper", "size_bytes"):   # plain ints (the common case) need no check
                v = getattr(b, name)
                if isinstance(v, bool) or not isinstance(v, int):
                    raise ValueError(f"buffer {b.buffer_id!r}: {name} must be an int, got {v!r}")
        if b.size_bytes < 0:
            raise ValueError(f"buffer {b.buffer_id!r}: negative size {b.size_bytes}")
        if b.lower >= b.upper:
            raise ValueError(f"buffer {b.buffer_id!r}: lower {b.lower} >= upper {b.upper}")
        if b.buffer_id in seen:
            raise ValueError(f"duplicate buffer id {b.buffer_id!r}")
        seen.add(b.buffer_id)
    sizes = [_align_up(b.size_bytes, alignment) for b in bufs]
    live = [i for i, s in enumerate(sizes) if s]
    conflict = _interval_conflicts(bufs, live)
    # Lower bound: sweep over lifetime ends (an end at t frees before a start at t).
    events = sorted([(bufs[i].lower, 1, sizes[i]) for i in live] + [(bufs[i].upper, 0, -sizes[i]) for i in live])
    lower = cur = 0
    for _, _, d in events:
        cur += d
        lower = max(lower, cur)
    cbytes = {i: sum([sizes[j] for j in _bits(conflict[i])]) for i in live}
    orders = {
        "size": sorted(live, key=lambda i: (-sizes[i], bufs[i].lower, i)),
        "start": sorted(live, key=lambda i: (bufs[i].lower, -sizes[i], i)),
        "lifetime": sorted(live, key=lambda i: (bufs[i].lower - bufs[i].upper, -sizes[i], i)),
        "conflict_bytes": sorted(live, key=lambda i: (-cbytes[i] - sizes[i], i)),
    }
    offs, arena, name, per_order, optimal = _best_placement(live, sizes, conflict, orders, lower)
    plan = BufferPlan(alignment=alignment, offsets={b.buffer_id: offs.get(i, 0) for i, b in enumerate(bufs)},
                      aligned_bytes={b.buffer_id: sizes[i] for i, b in enumerate(bufs)}, arena_bytes=arena,
                      lower_bound_bytes=lower, naive_bytes=sum(sizes), order=name, order_arena_bytes=per_order,
                      buffers=bufs, optimal=optimal)
    verify_buffers(plan)
    return plan


class BlockIndex:
    """Device blocks by base address: ``add(base, nbytes)``, then ``owner(addr)`` is the
    base of the block holding ``addr`` (a zero-byte block holds its base), or None.
    ``bases`` (sorted) and ``sizes`` are the blocks. Used to map the addresses tasks
    touch back to the buffers a plan places (a captured graph, a model run's arena)."""

    def __init__(self, blocks: dict[int, int] | None = None) -> None:
        self.sizes: dict[int, int] = dict(blocks or {})
        self.bases: list[int] = sorted(self.sizes)

    def add(self, base: int, nbytes: int) -> int:
        """Record the block ``[base, base + nbytes)``; returns ``base``."""
        bisect.insort(self.bases, base)
        self.sizes[base] = nbytes
        return base

    def owner(self, addr: int) -> int | None:
        k = bisect.bisect_right(self.bases, addr) - 1
        if k < 0:
            return None
        base = self.bases[k]
        return base if addr < base + max(self.sizes[base], 1) else None


def plan_ordered(ids: Sequence[Hashable], sizes: Sequence[int], before: Sequence[int],
                 alignment: int = DEFAULT_ALIGNMENT_BYTES) -> BufferPlan:
    """Place buffers whose only known relation is a partial order: bit ``i`` of
    ``before[j]`` set means every use of buffer ``i`` happens before every use of buffer
    ``j`` (transitively closed, acyclic), so they may share memory; any other pair may be
    live together. Lower bound: the maximum-weight antichain (as ``plan_workspaces``).
    Lifetimes are reported as [0, 1) (there is no op clock). Raises ``ValueError`` on
    mismatched lengths, a negative size or a bad alignment."""
    if not (len(ids) == len(sizes) == len(before)):
        raise ValueError("ids, sizes and before must have one entry per buffer")
    if isinstance(alignment, bool) or not isinstance(alignment, int) or alignment <= 0:
        raise ValueError(f"alignment must be a positive int (bytes), got {alignment!r}")
    if any(s < 0 for s in sizes):
        raise ValueError("negative buffer size")
    al = [_align_up(s, alignment) for s in sizes]
    live = [i for i, s in enumerate(al) if s]
    mask = sum(1 << i for i in live)
    after = [0] * len(al)
    for j, b in enumerate(before):
        for i in live:
            if b >> i & 1:
                after[i] |= 1 << j
    conflict = [0] * len(al)
    for i in live:
        conflict[i] = mask & ~(before[i] | after[i] | (1 << i))
    lower, _ = _lower_bound(al, live, list(before))
    cbytes = {i: sum(al[j] for j in _bits(conflict[i])) for i in live}
    orders = {"size": sorted(live, key=lambda i: (-al[i], i)), "issue": list(live),
              "conflict_bytes": sorted(live, key=lambda i: (-cbytes[i] - al[i], i))}
    offs, arena, name, per_order, optimal = _best_placement(live, al, conflict, orders, lower)
    return BufferPlan(alignment=alignment, offsets={b: offs.get(i, 0) for i, b in enumerate(ids)},
                      aligned_bytes={b: al[i] for i, b in enumerate(ids)}, arena_bytes=arena,
                      lower_bound_bytes=lower, naive_bytes=sum(al), order=name, order_arena_bytes=per_order,
                      buffers=tuple(BufferRequest(b, 0, 1, sizes[i]) for i, b in enumerate(ids)), optimal=optimal)
