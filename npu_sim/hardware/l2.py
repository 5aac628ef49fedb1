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

Keys do not cross kernel launches: a later kernel re-reading an earlier one's
output does not hit (the tile programs carry no device addresses). Old launches'
ranges still occupy the LRU until evicted, as stale lines do, and their dirty
bytes are written back then (charged to the kernel that evicts them).
"""
from __future__ import annotations

from collections import OrderedDict
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
        lines = self.lines
        lines[key] = nbytes
        self.used_bytes += nbytes
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
