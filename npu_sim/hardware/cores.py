"""AI Cores, and the scheduler that hands them to kernel blocks.

Separated architecture (910B): each AI Core is one AIC (pipes MTE2, MTE1, CUBE,
FIXPIPE; buffers L1, L0A, L0B, L0C, BT) and two AIVs (pipes MTE2, VECTOR, MTE3;
buffer UB) that talk only through GM. ``block_dim`` counts AICs for a Cube kernel,
AIVs for a vector kernel, and groups (AIC ``i`` with AIV ``2i`` and ``2i+1``) for a
MIX kernel (Ascend C SetBlockDim docs).

Coupled architecture (310P): an AI Core holds the Cube and the Vector unit behind
one set of copy engines and one Scalar unit, so it runs one block at a time of
either kind; the chip also has vector-only cores. A Cube kernel takes AI Cores; a
vector kernel takes vector cores first, then idle AI Cores (their vector units), so
the two kinds compete for the AI Cores. MIX kernels need the separated architecture.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..chips import Architecture, ChipConfig
from ..program import Buffer, CoreType


@dataclass(slots=True, eq=False)
class Core:
    """One core. ``name`` is its trace label, e.g. "AIC3" or "AIV17"; ``core_type`` is
    the kind of unit (AIC for an AI Core on either architecture); ``free`` is True
    while no block holds it."""

    name: str
    core_type: CoreType
    index: int
    free: bool = True


def buffer_capacity(chip: ChipConfig, core_type: CoreType) -> dict[Buffer, int]:
    """Capacity in bytes of each on-chip buffer a block of ``core_type`` may use (a MIX
    block: its AIC's buffers plus the UB of each of its AIVs)."""
    aiv = {Buffer.UB: chip.ub_bytes}
    aic = {Buffer.L1: chip.l1_bytes, Buffer.L0A: chip.l0a_bytes, Buffer.L0B: chip.l0b_bytes,
           Buffer.L0C: chip.l0c_bytes, Buffer.BT: chip.bias_table_bytes}
    if core_type is CoreType.AIV:
        return aiv
    if core_type is CoreType.MIX:
        return {**aic, **aiv}
    return aic


def make_cores(chip: ChipConfig) -> dict[CoreType, list[Core]]:
    """The chip's physical cores by unit type: AIC (AI Cores) and AIV (vector cores).
    On a coupled chip the AIV list holds only the vector-only cores."""
    aic = [Core(f"AIC{i}", CoreType.AIC, i) for i in range(chip.aic_count)]
    aiv = [Core(f"AIV{i}", CoreType.AIV, i) for i in range(chip.aiv_count)]
    return {CoreType.AIC: aic, CoreType.AIV: aiv}


class CoreScheduler:
    """Hands free cores to blocks. :meth:`acquire` returns at once (no SimPy event)
    when the cores are free and nobody who could use them is waiting; otherwise it
    returns an event that fires with them. Waiters are served first come, first
    served among those that compete for the same cores, except that a waiter of a
    higher stream priority (a smaller number: aclrtCreateStreamWithConfig takes 0, the
    highest, to 7, the lowest) goes before every waiter of a lower one when cores free
    up. A block already running is never preempted. With every priority equal the
    order is plain FIFO (the sort is skipped until a non-default priority is seen).

    A block of kind AIC gets an AIC :class:`Core`; AIV gets an AIV (on a coupled
    chip, an AI Core when no vector core is free); MIX gets a tuple ``(aic, aiv,
    aiv)`` of one AI Core's group.
    """

    __slots__ = ("env", "cores", "free", "sources", "waiters", "waiting", "conflicts", "coupled",
                 "prioritized")

    def __init__(self, env, chip: ChipConfig, cores: dict[CoreType, list[Core]]):
        self.env = env
        self.cores = cores
        self.coupled = chip.architecture is Architecture.COUPLED
        # free lists: pop() gives the lowest index first
        self.free = {CoreType.AIC: list(reversed(cores[CoreType.AIC])),
                     CoreType.AIV: list(reversed(cores[CoreType.AIV]))}
        self.sources = {CoreType.AIC: (CoreType.AIC,),
                        CoreType.AIV: (CoreType.AIV, CoreType.AIC) if self.coupled else (CoreType.AIV,),
                        CoreType.MIX: (CoreType.AIC, CoreType.AIV)}
        units = {k: set(v) for k, v in self.sources.items()}
        self.conflicts = {k: tuple(o for o in CoreType if units[o] & units[k]) for k in CoreType}
        self.waiters: list = []
        self.waiting = {k: 0 for k in CoreType}
        self.prioritized = False   # True once a waiter with a non-default priority was queued

    def capacity(self, kind: CoreType) -> int:
        """How many blocks of ``kind`` can run at once on an otherwise idle chip."""
        if kind is CoreType.MIX:
            return 0 if self.coupled else min(len(self.cores[CoreType.AIC]), len(self.cores[CoreType.AIV]) // 2)
        return sum(len(self.cores[u]) for u in self.sources[kind])

    def _take(self, kind: CoreType):
        if kind is CoreType.MIX:
            aivs = self.cores[CoreType.AIV]
            for c in reversed(self.free[CoreType.AIC]):
                i = 2 * c.index
                if i + 1 < len(aivs) and aivs[i].free and aivs[i + 1].free:
                    group = (c, aivs[i], aivs[i + 1])
                    self.free[CoreType.AIC].remove(c)
                    self.free[CoreType.AIV].remove(aivs[i])
                    self.free[CoreType.AIV].remove(aivs[i + 1])
                    for g in group:
                        g.free = False
                    return group
            return None
        for u in self.sources[kind]:
            lst = self.free[u]
            if lst:
                c = lst.pop()
                c.free = False
                return c
        return None

    def acquire(self, kind: CoreType, priority: int = 0):
        """A free core (or MIX group), or a SimPy event whose value is one.
        ``priority``: the stream's (0 highest .. 7 lowest; default 0)."""
        waiting = self.waiting
        if not self.waiters or not any(waiting[k] for k in self.conflicts[kind]):
            got = self._take(kind)
            if got is not None:
                return got
        ev = self.env.event()
        self.waiters.append((kind, ev, priority))
        if priority:
            self.prioritized = True
        waiting[kind] += 1
        return ev

    def free_groups(self) -> int:
        """How many MIX groups (a free AIC with both its AIVs free) :meth:`acquire` could
        hand out now, one after the other (the groups share no core)."""
        aivs = self.cores[CoreType.AIV]
        n = 0
        for c in self.free[CoreType.AIC]:
            i = 2 * c.index
            if i + 1 < len(aivs) and aivs[i].free and aivs[i + 1].free:
                n += 1
        return n

    def take_free(self, kind: CoreType, n: int) -> list:
        """What ``n`` calls of :meth:`acquire` (priority 0) return, in order: when nobody
        waits and ``kind`` is AIC or AIV, the free cores taken from the free lists in
        the same order (lowest index first, AIV before AI Cores on a coupled chip),
        without a call per block; a core the lists cannot give comes as
        :meth:`acquire`'s event. The uncontended fast path calls it with enough cores free."""
        if self.waiters or kind is CoreType.MIX:
            return [self.acquire(kind) for _ in range(n)]
        srcs = self.sources[kind]
        lst = self.free[srcs[0]]
        if len(srcs) == 1 and len(lst) >= n:   # the usual case: one free list holds them all
            out = lst[-n:] if n else []
            del lst[len(lst) - n:]
            out.reverse()
            for c in out:
                c.free = False
            return out
        out = []
        for u in srcs:
            lst = self.free[u]
            m = min(n - len(out), len(lst))
            if m > 0:
                got = lst[-m:]
                del lst[-m:]
                got.reverse()
                for c in got:
                    c.free = False
                out += got
        while len(out) < n:
            out.append(self.acquire(kind))
        return out

    def release(self, got) -> None:
        """Give back what :meth:`acquire` handed out (a core or a MIX group)."""
        for c in (got if isinstance(got, tuple) else (got,)):
            c.free = True
            self.free[c.core_type].append(c)
        if self.waiters:
            self._serve()

    def _serve(self) -> None:
        w = self.waiters
        if self.prioritized:
            w.sort(key=_priority)   # stable: FIFO within one priority
        i = 0
        blocked: set = set()
        while i < len(w):
            kind, ev, _ = w[i]
            # FIFO among competitors: once a kind is stuck, later waiters sharing its cores wait too
            got = None if blocked & set(self.sources[kind]) else self._take(kind)
            if got is None:
                blocked |= set(self.sources[kind])
                i += 1
                continue
            del w[i]
            self.waiting[kind] -= 1
            ev.succeed(got)


def _priority(waiter) -> int:
    return waiter[2]
