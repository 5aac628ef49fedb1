"""Global workspace planner (acl_runtime.workspace_planner): happens-before, placement,
bounds and errors. References are independent: networkx reachability for the order and
brute force over all op subsets for the largest concurrent total."""
from __future__ import annotations

import itertools

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from acl_runtime.workspace_planner import (
    DEFAULT_ALIGNMENT_BYTES, EnqueueLog, WorkspacePlan, WorkspaceRequest, plan_workspaces, verify_plan)

R = WorkspaceRequest
A = DEFAULT_ALIGNMENT_BYTES


def up(n: int, a: int = A) -> int:
    return -(-n // a) * a


# ----------------------------------------------------------------------------- references
def reference_order(requests, edges) -> nx.DiGraph:
    g = nx.DiGraph()
    g.add_nodes_from(r.op_id for r in requests)
    last = {}
    for r in requests:
        if r.stream in last:
            g.add_edge(last[r.stream], r.op_id)
        last[r.stream] = r.op_id
    g.add_edges_from(edges)
    return g


def reference_lower_bound(requests, edges, alignment=A) -> int:
    """Largest total of aligned workspaces whose ops are pairwise unordered (brute force)."""
    g = reference_order(requests, edges)
    ops = [r for r in requests if r.size_bytes]
    best = 0
    for k in range(1, len(ops) + 1):
        for subset in itertools.combinations(ops, k):
            if all(not nx.has_path(g, a.op_id, b.op_id) and not nx.has_path(g, b.op_id, a.op_id)
                   for a, b in itertools.combinations(subset, 2)):
                best = max(best, sum(up(r.size_bytes, alignment) for r in subset))
    return best


# ----------------------------------------------------------------------------- basic cases
def test_single_stream_arena_is_largest_workspace():
    """Ops on one stream run in order, so they all share one region."""
    reqs = [R(i, "s0", n) for i, n in enumerate([1000, 70000, 3, 0, 5000])]
    plan = plan_workspaces(reqs)
    assert plan.arena_bytes == up(70000) == plan.lower_bound_bytes
    assert plan.naive_bytes == sum(up(r.size_bytes) for r in reqs)
    assert set(plan.offsets.values()) == {0}


def test_two_independent_streams_need_sum_of_maxima():
    reqs = [R("a0", 0, 4096), R("b0", 1, 1024), R("a1", 0, 8192), R("b1", 1, 3000), R("a2", 0, 100)]
    plan = plan_workspaces(reqs)
    assert plan.arena_bytes == 8192 + up(3000) == plan.lower_bound_bytes
    verify_plan(plan)


def test_full_event_chain_serialises_streams_back_to_max():
    """Stream 0 op -> record -> wait on stream 1 -> op -> record -> wait on 0 ..."""
    log = EnqueueLog()
    sizes = [4096, 1024, 8192, 3000, 512, 2048]
    for k, n in enumerate(sizes):
        s = k % 2
        log.launch(f"op{k}", s, n)
        log.record_event(f"e{k}", s)
        log.stream_wait_event(1 - s, f"e{k}")
    plan = log.plan()
    assert log.edges == [(f"op{k}", f"op{k + 1}") for k in range(len(sizes) - 1)]
    assert plan.arena_bytes == 8192 == plan.lower_bound_bytes
    assert all(plan.happens_before(f"op{i}", f"op{j}") for i, j in itertools.combinations(range(6), 2))


def test_event_orders_only_later_ops():
    """A wait orders ops after it on the waiting stream, not ops before it."""
    log = EnqueueLog()
    log.launch("x", 0, 1024)
    log.launch("y_before", 1, 1024)
    log.record_event("e", 0)
    log.stream_wait_event(1, "e")
    log.launch("y_after", 1, 2048)
    plan = log.plan()
    assert plan.happens_before("x", "y_after") and not plan.happens_before("x", "y_before")
    assert plan.conflicts("x", "y_before") and not plan.conflicts("x", "y_after")
    assert plan.arena_bytes == 2048 == plan.lower_bound_bytes  # {x, y_before} = 2048 too


def test_record_captures_what_the_stream_waited_for():
    """Stream 1 waits for stream 0, then records with no op in between: a third stream
    waiting on that record is ordered after stream 0's op (transitively)."""
    log = EnqueueLog()
    log.launch("a", 0, 1024)
    log.record_event("e0", 0)
    log.stream_wait_event(1, "e0")
    log.record_event("e1", 1)
    log.stream_wait_event(2, "e1")
    log.launch("c", 2, 1024)
    assert log.plan().happens_before("a", "c")


def test_wait_on_unrecorded_event_adds_no_order():
    log = EnqueueLog()
    log.launch("a", 0, 512)
    log.stream_wait_event(1, "never")
    log.launch("b", 1, 512)
    assert log.edges == [] and log.plan().arena_bytes == 1024


def test_rerecord_uses_latest_record():
    log = EnqueueLog()
    log.launch("a", 0, 512)
    log.record_event("e", 0)
    log.launch("b", 0, 512)
    log.record_event("e", 0)
    log.stream_wait_event(1, "e")
    log.launch("c", 1, 512)
    assert log.edges == [("b", "c")]


def test_alignment_and_report_rows():
    reqs = [R("a", 0, 100), R("b", 1, 65), R("c", 1, 0)]
    plan = plan_workspaces(reqs, alignment=64)
    assert plan.aligned_bytes == {"a": 128, "b": 128, "c": 0}
    assert plan.arena_bytes == 256 and plan.naive_bytes == 256
    assert all(off % 64 == 0 for off in plan.offsets.values())
    summary = dict(plan.report())
    assert summary["arena_bytes"] == "256" and summary["lower_bound_bytes"] == "256"
    assert summary["alignment_bytes"] == "64" and summary["arena / lower bound"] == "1.000"
    rows = plan.buffer_rows()
    assert [r[0] for r in rows] == ["a", "b", "c"] and rows[2][3:] == ("-", "-")
    assert sorted(plan.peak_ops) == ["a", "b"]


def test_empty_plan():
    plan = plan_workspaces([])
    assert (plan.arena_bytes, plan.lower_bound_bytes, plan.naive_bytes) == (0, 0, 0)


def test_verify_plan_catches_overlap():
    plan = plan_workspaces([R("a", 0, 512), R("b", 1, 512)])
    bad = WorkspacePlan(**{**plan.__dict__, "offsets": {"a": 0, "b": 0}})
    with pytest.raises(AssertionError, match="concurrent ops 'a' .* and 'b' .* overlap"):
        verify_plan(bad)
    bad = WorkspacePlan(**{**plan.__dict__, "offsets": {"a": 0, "b": 100}})
    with pytest.raises(AssertionError, match="'b': offset 100 is not a multiple of 512"):
        verify_plan(bad)
    bad = WorkspacePlan(**{**plan.__dict__, "arena_bytes": 512})
    with pytest.raises(AssertionError, match="outside arena of 512 B"):
        verify_plan(bad)


# ----------------------------------------------------------------------------- errors
@pytest.mark.parametrize("reqs, edges, alignment, message", [
    ([R("a", 0, -1)], [], A, "op 'a': negative size_bytes -1"),
    ([R("a", 0, 1.5)], [], A, "op 'a': size_bytes must be an int, got 1.5"),
    ([R("a", 0, True)], [], A, "op 'a': size_bytes must be an int, got True"),
    ([R("a", 0, 1), R("a", 1, 1)], [], A, "duplicate op id 'a'"),
    ([R("a", 0, 1)], [("a", "zz")], A, "edge 'a' -> 'zz' names unknown op id 'zz'"),
    ([R("a", 0, 1)], [("a",)], A, r"edge must be a \(before_op, after_op\) pair, got \('a',\)"),
    ([R("a", 0, 1)], [("a", "a")], A, "form a cycle: 'a' -> 'a'"),
    ([R("a", 0, 1), R("b", 1, 1), R("c", 0, 1)], [("c", "b"), ("b", "a")], A,
     "form a cycle: 'a' -> 'c' -> 'b' -> 'a'"),
    ([R("a", 0, 1)], [], 0, "alignment must be a positive int .bytes., got 0"),
    ([R("a", 0, 1)], [], -512, "alignment must be a positive int .bytes., got -512"),
    (["a"], [], A, "expected WorkspaceRequest, got 'a'"),
])
def test_bad_input_raises_value_error(reqs, edges, alignment, message):
    with pytest.raises(ValueError, match=message):
        plan_workspaces(reqs, edges, alignment)


def test_lower_bound_solver_range_error():
    reqs = [R("a", 0, 2**40 + A), R("b", 1, 2**40 + 2 * A)]
    with pytest.raises(ValueError, match="exceeds the int32 capacities"):
        plan_workspaces(reqs)


# ----------------------------------------------------------------------------- properties
@st.composite
def workloads(draw, max_ops=9):
    n = draw(st.integers(0, max_ops))
    n_streams = draw(st.integers(1, 4))
    sizes = st.one_of(st.just(0), st.integers(1, 8 * A), st.sampled_from([A, 2 * A, 4 * A]))
    reqs = [R(f"op{i}", draw(st.integers(0, n_streams - 1)), draw(sizes)) for i in range(n)]
    # Edges only forward in enqueue order (as records/waits produce): always acyclic.
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), max_size=2 * n, unique=True)) if pairs else []
    return reqs, [(f"op{i}", f"op{j}") for i, j in chosen]


@settings(max_examples=150)
@given(workloads(), st.sampled_from([A, 64, 32]))
def test_random_dags_match_references(work, alignment):
    reqs, edges = work
    plan = plan_workspaces(reqs, edges, alignment)
    verify_plan(plan)
    g = reference_order(reqs, edges)
    for a, b in itertools.permutations([r.op_id for r in reqs], 2):
        assert plan.happens_before(a, b) == nx.has_path(g, a, b)
    lb = reference_lower_bound(reqs, edges, alignment)
    assert plan.lower_bound_bytes == lb
    assert lb <= plan.arena_bytes <= plan.naive_bytes
    assert sum(plan.aligned_bytes[o] for o in plan.peak_ops) == lb
    if reqs:
        assert plan.arena_bytes == min(plan.order_arena_bytes.values())


@settings(max_examples=40)
@given(st.integers(1, 5), st.lists(st.integers(1, 64 * A), min_size=1, max_size=40))
def test_random_streams_without_events_need_sum_of_stream_maxima(n_streams, sizes):
    reqs = [R(i, i % n_streams, n) for i, n in enumerate(sizes)]
    plan = plan_workspaces(reqs)
    per_stream = {}
    for r in reqs:
        per_stream[r.stream] = max(per_stream.get(r.stream, 0), up(r.size_bytes))
    assert plan.arena_bytes == sum(per_stream.values()) == plan.lower_bound_bytes


@settings(max_examples=25)
@given(st.integers(2, 4), st.integers(20, 80), st.integers(0, 2**32 - 1))
def test_larger_random_logs_never_overlap(n_streams, n_ops, seed):
    import random
    rng = random.Random(seed)
    log = EnqueueLog()
    for k in range(n_ops):
        s = rng.randrange(n_streams)
        if rng.random() < 0.3:
            log.record_event(f"e{k}", s)
            log.stream_wait_event(rng.randrange(n_streams), f"e{rng.randrange(k + 1)}")
        log.launch(k, s, rng.choice([0, rng.randrange(1, 1 << 20)]))
    plan = log.plan()
    verify_plan(plan)
    assert plan.lower_bound_bytes <= plan.arena_bytes <= plan.naive_bytes
