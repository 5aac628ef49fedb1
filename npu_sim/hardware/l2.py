"""The L2 cache model: an LRU over keyed GM ranges, sized like the chip's L2.

What a key is: tilings describe the GM data a stage reads or writes with
:class:`~npu_sim.program.GmRange` keys (e.g. ``("B", batch, n_tile, k_step)`` for one
chunk of a matmul's right operand). The pipeline scopes each key to its kernel
launch and to the tile's index inside its ``TileSpec`` group, so the cache sees
``(launch, key, j)``. A range is cached whole or not at all (tile/transfer
granularity, not cache lines). Data with no key (``None``) is never cached: the
model does not know where it lives, so it is always served from HBM.

Policy (assumptions [A], documented in ``docs/timing.md``):

* a keyed read that hits is served by the L2 bandwidth server; a miss is served
  by HBM and then cached (read-allocate), evicting least-recently-used ranges
  until the total fits ``l2_bytes``;
* a keyed write is write-back: it is served by the L2 server (at the ini write
  rate), the range is cached dirty and nothing goes to HBM yet; a later read of
  the key hits (e.g. an AIC -> AIV hand-over through a GM workspace in a MIX
  kernel, which therefore stays in L2 while it fits). When a dirty range is
  evicted its bytes are written to HBM: they are added to the HBM bytes of the
  transfer whose insertion evicted it (:meth:`L2Cache.take_writeback`), so a
  working set larger than L2 pays for its write-backs -- the capacity cliff;
* a range larger than the whole L2 is never cached (a write goes straight to HBM).

Keys do not cross kernel launches (the tile programs carry no device addresses).
Old launches' ranges still occupy the LRU until evicted, as stale lines do, and
their dirty bytes are written back then (charged to the kernel that evicts them).

Across kernels, :class:`GmL2` keeps the device's L2 state by GM address: the byte
ranges of every kernel's inputs, outputs and workspace (the launch's
``KernelLaunch.gm``), so a kernel reading what an earlier one wrote or read is served
from L2 while those bytes are still resident (producer-consumer reuse; the policy is
in :class:`GmL2`'s docstring and docs/timing.md, "L2 across kernels"). Copy tasks
(H2D, D2D, memset) invalidate the device range they write (:meth:`GmL2.invalidate`).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right, insort
from collections import OrderedDict
from heapq import heapify, heappop, heappush
from typing import Hashable


class L2Cache:
    """LRU of keyed ranges. ``capacity_bytes`` is the chip's ``l2_bytes``.

    Counters: ``hits``/``misses`` (accesses), ``hit_bytes``/``miss_bytes``,
    ``used_bytes`` (now cached), ``evictions``, ``writeback_bytes`` (dirty bytes
    evicted to HBM so far); ``pending_writeback`` is the part not yet taken by
    :meth:`take_writeback`.
    """

    __slots__ = ("capacity_bytes", "lines", "dirty", "used_bytes", "hits", "misses", "hit_bytes", "miss_bytes",
                 "evictions", "writeback_bytes", "pending_writeback")

    def __init__(self, capacity_bytes: int):
        self.capacity_bytes = int(capacity_bytes)
        self.lines: OrderedDict[Hashable, int] = OrderedDict()
        self.dirty: set = set()
        self.used_bytes = 0
        self.hits = self.misses = self.hit_bytes = self.miss_bytes = self.evictions = 0
        self.writeback_bytes = self.pending_writeback = 0

    def read(self, key: Hashable, nbytes: int) -> bool:
        """A read of ``nbytes`` under ``key``: True on a hit (the range is now most
        recently used); on a miss the range is inserted and False returned."""
        lines = self.lines
        if key in lines:
            lines.move_to_end(key)
            self.hits += 1
            self.hit_bytes += nbytes
            return True
        self.misses += 1
        self.miss_bytes += nbytes
        self._insert(key, nbytes)
        return False

    def write(self, key: Hashable, nbytes: int) -> bool:
        """A write-back write of ``nbytes`` under ``key``: the range becomes most recently
        used and dirty. Returns False (nothing cached) if it is larger than the L2: the
        caller sends it to HBM."""
        lines = self.lines
        if key in lines:
            self.used_bytes -= lines.pop(key)
            self.dirty.discard(key)
        if nbytes > self.capacity_bytes:
            return False
        self._insert(key, nbytes)
        self.dirty.add(key)
        return True

    def take_writeback(self) -> int:
        """Dirty bytes evicted since the last call (they go to HBM now); resets to 0."""
        b = self.pending_writeback
        self.pending_writeback = 0
        return b

    def _insert(self, key: Hashable, nbytes: int) -> None:
        if nbytes > self.capacity_bytes:
            return
        self.lines[key] = nbytes
        self.used_bytes += nbytes
        if self.used_bytes > self.capacity_bytes:
            self._evict()

    def _evict(self) -> None:
        """Evict LRU ranges until the cached bytes fit, dirty ones written back (run_block's inlined insert)."""
        lines = self.lines
        dirty = self.dirty
        while self.used_bytes > self.capacity_bytes:
            k, b = lines.popitem(last=False)
            self.used_bytes -= b
            self.evictions += 1
            if dirty and k in dirty:
                dirty.discard(k)
                self.writeback_bytes += b
                self.pending_writeback += b

    def __contains__(self, key: Hashable) -> bool:
        return key in self.lines

    def clear(self) -> None:
        """Drop every cached range, dirty ones without a write-back (counters are kept)."""
        self.lines.clear()
        self.dirty.clear()
        self.used_bytes = 0


class GmL2:
    """The device's L2 state across kernels: an LRU over GM byte intervals.

    ``capacity_bytes`` is the chip's ``l2_bytes`` (910B2: 192 MiB, CANN
    ``Ascend910B2.ini`` ``[SoCInfo] l2_size``). Intervals are half-open ``[addr,
    addr + nbytes)`` device addresses, disjoint, each with a last-use stamp. Policy
    (assumptions [A], docs/timing.md "L2 across kernels"):

    * :meth:`kernel` first measures how many bytes of the kernel's input ranges are
      resident (the hits; when the kernel's footprint -- inputs + outputs +
      workspace -- exceeds the capacity, each byte over it is taken to evict one
      resident byte before it is read, as a stream in address order does to an
      LRU), then touches its inputs (read-allocate), its workspace and its outputs
      (write-allocate) in that order, each becoming most recently used;
    * outputs are written through: their HBM bytes are paid when written (each output
      line goes to HBM once, on eviction or later, so the bytes are the same and only
      their time moves; paying at write time keeps a kernel from leaving its
      write-back to nobody), and the lines stay resident for the consumer;
    * when the total exceeds the capacity the least recently used intervals are
      trimmed from their start (byte-exact, no sets or ways): an operand set larger
      than L2 leaves only its newest ``capacity_bytes`` resident, the capacity cliff;
    * a range larger than the whole L2 leaves its last ``capacity_bytes`` resident
      (the tail of a stream is what an LRU keeps).

    Cost: a query or touch is O(log n + k) for n resident intervals of which k
    overlap (sorted starts + bisect); eviction pops a stamp heap (stale entries of
    split or trimmed intervals are skipped).

    Counters: ``hit_bytes`` / ``read_bytes`` (input bytes found resident / asked
    for, over all kernels), ``used_bytes`` (resident now), ``evicted_bytes``,
    ``invalidated_bytes`` (dropped by copies, :meth:`invalidate`).
    """

    __slots__ = ("capacity_bytes", "starts", "spans", "heap", "used_bytes", "clock", "hit_bytes", "read_bytes",
                 "evicted_bytes", "invalidated_bytes")

    def __init__(self, capacity_bytes: int):
        self.capacity_bytes = int(capacity_bytes)
        self.starts: list[int] = []            # sorted interval starts
        self.spans: dict[int, list] = {}       # start -> [end, stamp]
        self.heap: list[tuple[int, int]] = []  # (stamp, start), lazily cleaned
        self.used_bytes = 0
        self.clock = 0
        self.hit_bytes = self.read_bytes = self.evicted_bytes = self.invalidated_bytes = 0

    def _overlapping(self, lo: int, hi: int) -> tuple[int, int]:
        """Index range ``[i, j)`` of ``starts`` whose intervals overlap ``[lo, hi)``."""
        starts = self.starts
        i = bisect_right(starts, lo) - 1
        if i < 0 or self.spans[starts[i]][0] <= lo:
            i += 1
        return i, bisect_left(starts, hi, i)

    def resident(self, addr: int, nbytes: int) -> int:
        """Bytes of ``[addr, addr + nbytes)`` resident now (no state change)."""
        lo, hi = addr, addr + nbytes
        spans = self.spans
        cur = spans.get(lo)
        if cur is not None and cur[0] >= hi and nbytes > 0:   # inside one resident interval
            return nbytes
        i, j = self._overlapping(lo, hi)
        got = 0
        for s in self.starts[i:j]:
            e = spans[s][0]
            got += min(e, hi) - max(s, lo)
        return got

    def _put(self, s: int, e: int, stamp: int) -> None:
        self.spans[s] = [e, stamp]
        insort(self.starts, s)
        heappush(self.heap, (stamp, s))
        self.used_bytes += e - s

    def touch(self, addr: int, nbytes: int) -> None:
        """Make ``[addr, addr + nbytes)`` resident and most recently used (its tail
        ``capacity_bytes`` if larger), evicting least recently used bytes."""
        if nbytes <= 0 or self.capacity_bytes <= 0:
            return
        if nbytes > self.capacity_bytes:
            addr, nbytes = addr + nbytes - self.capacity_bytes, self.capacity_bytes
        lo, hi = addr, addr + nbytes
        spans = self.spans
        cur = spans.get(lo)
        if cur is not None and cur[0] == hi:   # exactly one resident interval: only its stamp changes
            self.clock += 1
            cur[1] = self.clock               # the heap entry of the old stamp is now stale
            heappush(self.heap, (self.clock, lo))
            # no eviction: the bytes resident did not change
            if len(self.heap) > 4 * len(spans) + 64:
                self.heap = [(v[1], k) for k, v in spans.items()]
                heapify(self.heap)
            return
        i, j = self._overlapping(lo, hi)
        cut = self.starts[i:j]
        del self.starts[i:j]
        for s in cut:   # the parts outside [lo, hi) keep their stamp
            e, stamp = spans.pop(s)
            self.used_bytes -= e - s
            if s < lo:
                self._put(s, lo, stamp)
            if e > hi:
                self._put(hi, e, stamp)
        self.clock += 1
        self._put(lo, hi, self.clock)
        self._evict()
        if len(self.heap) > 4 * len(spans) + 64:   # drop stale entries now and then
            self.heap = [(v[1], k) for k, v in spans.items()]
            heapify(self.heap)

    def invalidate(self, addr: int, nbytes: int) -> int:
        """Forget ``[addr, addr + nbytes)`` (the parts of resident intervals outside it
        keep their stamps); returns the bytes dropped. Called when a copy task (H2D,
        D2D, memset) writes the range: its new bytes are not taken to be in L2, so a
        freshly uploaded tensor at an address an earlier tensor used is never an L2 hit.
        Assumption [A]: no public source says whether 910B's DMA (SDMA) writes allocate
        in L2; invalidating is the conservative choice (a later read pays HBM)."""
        if nbytes <= 0 or not self.starts:
            return 0
        lo, hi = addr, addr + nbytes
        i, j = self._overlapping(lo, hi)
        if i >= j:
            return 0
        spans = self.spans
        cut = self.starts[i:j]
        del self.starts[i:j]
        dropped = 0
        for s in cut:
            e, stamp = spans.pop(s)
            self.used_bytes -= e - s
            dropped += min(e, hi) - max(s, lo)
            if s < lo:
                self._put(s, lo, stamp)
            if e > hi:
                self._put(hi, e, stamp)
        self.invalidated_bytes += dropped
        return dropped

    def _evict(self) -> None:
        spans, heap = self.spans, self.heap
        while self.used_bytes > self.capacity_bytes:
            stamp, s = heappop(heap)
            cur = spans.get(s)
            if cur is None or cur[1] != stamp:
                continue    # stale: the interval was split, trimmed or touched since
            e = cur[0]
            over = self.used_bytes - self.capacity_bytes
            del spans[s]
            del self.starts[bisect_left(self.starts, s)]
            self.used_bytes -= e - s
            take = min(over, e - s)
            self.evicted_bytes += take
            if take < e - s:    # trim the oldest interval from its start; it stays the oldest
                self._put(s + take, e, stamp)

    def kernel(self, reads, writes, workspace=None) -> tuple[int, int]:
        """One kernel's GM ranges, ``reads`` and ``writes`` as ``(addr, nbytes)`` pairs and
        ``workspace`` an ``(addr, nbytes)`` pair or None: returns ``(hit_bytes,
        read_bytes)``, the input bytes resident at its start and all its input bytes,
        then updates the state as the class docstring says."""
        return self.kernel_footprint(reads, writes, workspace)[:2]

    def kernel_footprint(self, reads, writes, workspace=None) -> tuple[int, int, int]:
        """:meth:`kernel`, also returning the kernel's footprint (bytes: inputs +
        outputs + workspace) as a third item."""
        hit = total = 0
        resident, touch = self.resident, self.touch
        for a, n in reads:
            total += n
            hit += resident(a, n)
        foot = total
        for _, n in writes:
            foot += n
        if workspace:
            foot += workspace[1]
        if foot > self.capacity_bytes:   # each byte past capacity evicts a resident one before its use
            hit = max(0, hit - (foot - self.capacity_bytes))
        for a, n in reads:
            touch(a, n)
        if workspace:
            touch(*workspace)
        for a, n in writes:
            touch(a, n)
        self.hit_bytes += hit
        self.read_bytes += total
        return hit, total, foot

    def clear(self) -> None:
        """Forget every resident range (counters are kept)."""
        self.starts.clear()
        self.spans.clear()
        self.heap.clear()
        self.used_bytes = 0
