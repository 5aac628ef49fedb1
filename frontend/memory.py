"""Device memory policies for a prepared program: naive, caching, planned.

Every prepared aclnn call knows, before any data exists, which tensors it reads and
writes (its executor's slots) and how much workspace it needs (phase 1), so the
lifetime of every intermediate tensor and workspace is known once the graph is lowered
(DESIGN.md section 7, "global workspace scheduling"). Lifetimes are half-open call
intervals ``[first call using it, last call using it + 1)``; calls run in order on one
stream, so stream order is the whole happens-before relation here. Graph outputs live
to the end (they are read back after the run). Weights and graph inputs are not
planned (allocated up front in every policy).

Policies (``npu-sim run --memory``):

* ``naive``: one aclrtMalloc per tensor, one shared workspace (the runner as it was);
* ``caching``: a per-stream caching allocator in the manner of torch_npu's: a freed
  block goes back to the stream's pool and a later request takes the smallest free
  block that holds it (whole, no splitting), else a new block on top; blocks are 512 B
  granular. Simulated over the lifetimes and placed in one arena;
* ``planned``: ``acl_runtime.workspace_planner.plan_buffers`` (best fit over several
  orders, exact search for small problems) places everything in one arena.

Poison mode (``ModelRunner(poison=True)``, for safety tests): after the call that ends
a buffer's lifetime, an async device copy fills it with 0xFF bytes (NaN in every float
dtype, -1 in signed ints), so a plan that let a live buffer be overwritten shows up as
wrong outputs.

For ``caching`` and ``planned`` the runner hands out placeholder addresses
(:class:`DeferredMemory`) while lowering, then :func:`place` allocates the arena and
rebinds every executor slot and tensor into it. Kernel times do not depend on
addresses (the L2 model keys tile ranges, not addresses: ``npu_sim/hardware/l2.py``).
"""
from __future__ import annotations

import bisect
from dataclasses import dataclass

from acl_runtime.workspace_planner import DEFAULT_ALIGNMENT_BYTES, BlockIndex, BufferRequest, plan_buffers

POLICIES = ("naive", "caching", "planned")
#: placeholder addresses start here: above every simulated HBM address (device
#: generations are 2**44 apart and below 2**63, acl_runtime/context.py), leaving 2**42 B
VIRTUAL_BASE = 2**63 - 2**42
ALIGN = DEFAULT_ALIGNMENT_BYTES


def _up(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


class DeferredMemory(BlockIndex):
    """The intermediate blocks of a program (a :class:`BlockIndex`). ``alloc(nbytes)``
    returns a placeholder address (512 B aligned, >= VIRTUAL_BASE) placed later by
    :func:`place`; ``add(ptr, nbytes)`` records a real allocation instead (naive runs,
    for the report); ``owner(addr)`` is the base of the block holding ``addr`` (or None)."""

    def __init__(self) -> None:
        super().__init__()
        self.next = VIRTUAL_BASE

    def alloc(self, nbytes: int) -> int:
        base = self.add(self.next, nbytes)
        self.next += _up(max(nbytes, 1))
        return base


@dataclass
class MemoryReport:
    """Bytes of intermediate tensors + workspaces under each policy, and the lower
    bound (largest total live at one call). ``policy``: the one the run used;
    ``buffers``: how many were planned."""

    policy: str
    naive: int
    caching: int
    planned: int
    lower_bound: int
    buffers: int
    #: bytes live at each call, then after the last (:func:`live_bytes`), for the arena counter
    live: list | None = None

    def rows(self) -> list[tuple[str, str]]:
        def mib(b: int) -> str:
            return f"{b / 2**20:.2f} MiB"
        return [("naive (one buffer each)", mib(self.naive)), ("caching allocator", mib(self.caching)),
                ("planned arena", mib(self.planned)), ("lower bound", mib(self.lower_bound))]


def lifetimes(calls, deferred: DeferredMemory, keep: set[int]) -> list[BufferRequest]:
    """BufferRequests for every deferred block used by ``calls`` (and every block in
    ``keep``, which lives to the end) plus one per call workspace (id ``("ws", i)``)."""
    n = len(calls)
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, c in enumerate(calls):
        for t in c.executor.slots:
            b = deferred.owner(getattr(t, "tensor_data", 0) or 0)
            if b is not None:
                first.setdefault(b, i)
                last[b] = i
    out = []
    for b in deferred.bases:
        if b in keep or b not in first:
            lo = first.get(b, 0)
            out.append(BufferRequest(b, lo, n + 1, deferred.sizes[b]))
        else:
            out.append(BufferRequest(b, first[b], last[b] + 1, deferred.sizes[b]))
    out += [BufferRequest(("ws", i), i, i + 1, c.workspace_size) for i, c in enumerate(calls) if c.workspace_size]
    return out


def caching_offsets(bufs: list[BufferRequest]) -> tuple[dict, int]:
    """Simulate the caching allocator over ``bufs`` (one stream): at each call, blocks
    whose lifetime ended return to the pool, then new requests take the smallest free
    block that fits (lowest offset on ties), else a new block on top. Returns
    (offsets, total bytes of blocks ever created)."""
    offsets: dict = {}
    block_of: dict = {}
    free: list[tuple[int, int]] = []   # (size, offset)
    top = 0
    by_start: dict[int, list] = {}
    by_end: dict[int, list] = {}
    for b in bufs:
        if b.size_bytes:
            by_start.setdefault(b.lower, []).append(b)
            by_end.setdefault(b.upper, []).append(b)
    for t in sorted(set(by_start) | set(by_end)):
        for b in by_end.get(t, ()):
            bisect.insort(free, block_of[b.buffer_id])
        for b in by_start.get(t, ()):
            need = _up(b.size_bytes)
            k = bisect.bisect_left(free, (need, -1))
            if k < len(free):
                blk = free.pop(k)
            else:
                blk = (need, top)
                top += need
            block_of[b.buffer_id] = blk
            offsets[b.buffer_id] = blk[1]
    return offsets, top


def live_bytes(bufs: list[BufferRequest], n_calls: int) -> list[int]:
    """Bytes live at each call ``0..n_calls-1`` of ``bufs`` (half-open call lifetimes),
    then one more entry: bytes still live after the last call (graph outputs)."""
    diff = [0] * (n_calls + 2)
    for b in bufs:
        lo, hi = min(b.lower, n_calls + 1), min(b.upper, n_calls + 1)
        diff[lo] += b.size_bytes
        diff[hi] -= b.size_bytes
    out, cur = [], 0
    for d in diff[:n_calls + 1]:
        cur += d
        out.append(cur)
    return out


def plan(bufs: list[BufferRequest], policy: str):
    """(offsets, arena_bytes, MemoryReport) of ``bufs`` (from :func:`lifetimes`) for
    ``policy`` (caching or planned; the report covers all three)."""
    planned = plan_buffers(bufs, alignment=ALIGN)
    c_offs, c_arena = caching_offsets(bufs)
    n_calls = max((b.upper for b in bufs), default=1) - 1   # outputs live to n_calls + 1 (lifetimes)
    report = MemoryReport(policy, planned.naive_bytes, c_arena, planned.arena_bytes, planned.lower_bound_bytes,
                          len(bufs), live_bytes(bufs, n_calls))
    if policy == "planned":
        return planned.offsets, planned.arena_bytes, report
    return c_offs, c_arena, report


def place(calls, values: dict, deferred: DeferredMemory, keep: set[int], policy: str, malloc) -> tuple:
    """Plan, ``malloc(arena_bytes)`` one arena, rebind every executor slot and every
    DTensor in ``values`` that has a placeholder address, and return
    ``(per-call workspace addresses, MemoryReport, poison)``: ``poison[i]`` lists the
    ``(address, bytes)`` regions whose lifetime ends with call ``i`` (for poison mode)."""
    bufs = lifetimes(calls, deferred, keep)   # before rebinding: it reads placeholder addresses
    offsets, arena_bytes, report = plan(bufs, policy)
    arena = malloc(arena_bytes) if arena_bytes else 0

    def real(addr: int) -> int:
        b = deferred.owner(addr)
        if b is None:
            return addr
        return arena + offsets.get(b, 0) + (addr - b)

    done: set[int] = set()   # aclTensors are shared between slots and values: rebind each once

    def rebind(t) -> None:
        if t is not None and id(t) not in done and hasattr(t, "tensor_data"):
            done.add(id(t))
            t.tensor_data = real(t.tensor_data)

    for c in calls:
        for t in c.executor.slots:
            rebind(t)
    for d in values.values():
        rebind(d.tensor)
        d.ptr = real(d.ptr)
    ws = [arena + offsets[("ws", i)] if c.workspace_size else 0 for i, c in enumerate(calls)]
    poison: list[list[tuple[int, int]]] = [[] for _ in calls]
    for b in bufs:
        if b.size_bytes and b.upper <= len(calls):
            poison[b.upper - 1].append((arena + offsets[b.buffer_id], b.size_bytes))
    return ws, report, poison


def print_memory(console, report: MemoryReport, full: bool = False) -> None:
    """One summary line (the chosen policy and the lower bound), or with ``full`` a
    table of all three policies (``npu-sim run --memory-report``)."""
    chosen = getattr(report, report.policy)
    ratio = f"{chosen / report.lower_bound:.3f}" if report.lower_bound else "-"
    console.print(f"intermediates + workspaces ({report.buffers} buffers): {chosen / 2**20:,.2f} MiB under "
                  f"--memory {report.policy}, lower bound {report.lower_bound / 2**20:,.2f} MiB (ratio {ratio})",
                  highlight=False)
    if full:
        from rich.table import Table
        t = Table(title="memory policies (intermediates + workspaces)", title_justify="left")
        t.add_column("policy")
        t.add_column("bytes", justify="right")
        t.add_column("x lower bound", justify="right")
        for (name, _), b in zip(report.rows(), (report.naive, report.caching, report.planned, report.lower_bound)):
            t.add_row(name, f"{b:,}", f"{b / report.lower_bound:.2f}" if report.lower_bound else "-")
        console.print(t)
