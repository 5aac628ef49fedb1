"""Trace records collected while the simulation runs. Times are ns.

A *track* is a (process, thread) pair of names, e.g. ("host", "thread 0"),
("device 0", "stream 1"), ("device 0", "AIC3 MTE2"). Spans on one track never
overlap: each track belongs to one sequential actor (a host thread, an in-order
stream, or one pipe of one core). The Chrome trace writer in ``traces`` turns
these into JSON; nothing here knows that format.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .records import SpanColumns


@dataclass(slots=True)
class Span:
    """A timed interval. ``cat`` groups spans: "host", "task", "block", "pipe", "memcpy"."""

    track: tuple[str, str]
    name: str
    start_ns: float
    dur_ns: float
    cat: str
    args: dict[str, Any] | None = None
    flow_id: int | None = None  #: links a host launch span to the device task it created
    flow_out: bool = False      #: True on the host side of a flow


@dataclass(slots=True)
class Counter:
    """A sampled value, e.g. device memory in use (bytes)."""

    track: str
    name: str
    ts_ns: float
    value: float


#: recorder entries after which :meth:`TraceRecorder.span` packs on its own (a run
#: that never synchronizes); the runtime packs at every synchronization
PACK_EVERY = 1 << 20


class _SpanMark:
    """Marks the start of a span stored flat in ``TraceRecorder._items``."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "<span>"


_MARK = _SpanMark()
_FLAT = 9   # the mark + the 8 Span fields


def _entries(seq, start: int = 0):
    """The entries of a recorder list from ``start``: a flat span (mark + 8 fields) as
    an 8-tuple, anything else (a pipe 6-tuple, a Span) as it is."""
    i, n = start, len(seq)
    while i < n:
        e = seq[i]
        if e is _MARK:
            yield tuple(seq[i + 1:i + _FLAT])
            i += _FLAT
        else:
            yield e
            i += 1


class TraceRecorder:
    """Collects spans and counters. ``enabled=False`` keeps nothing (fast path).

    ``spans`` is a plain list of :class:`Span` in recording order, built the first
    time it is read after recording. Until then the recorder keeps spans in forms
    Python's cyclic garbage collector does not have to track:

    * :meth:`span` appends its eight fields flat to a list, after a marker: no
      container object per span, so recording adds nothing for the collector to
      scan (the args dict is usually shared, e.g. by every launch of one executor);
    * the tile pipeline appends pipe spans as 6-tuples ``(track, name, start, dur,
      tile, bytes)`` through the append function :meth:`pipe_sink` returns (the
      inlined form of :meth:`pipe_span`, used by ``npu_sim.hardware.pipeline``);
    * :meth:`pack` -- whenever the runtime synchronizes (and every
      :data:`PACK_EVERY` entries) -- moves what was recorded since into typed
      columns (``npu_sim.records.SpanColumns``: interned track and name ids,
      float64 times, args dicts as ``DictColumns``), about 46 bytes a span plus
      8 a non-shared args leaf, none of it tracked by the collector.

    Why: a long run keeps hundreds of thousands of spans. Kept as ``Span`` objects
    (and args dicts) they are all tracked, every full collection walks them, and
    phase-2 calls slowed down as the trace grew (``benchmarks/trace_gc.py``
    measures it), and a dict per span cost ~5 KB of host memory per launch (issue
    16). ``args`` round-trip exactly: same keys in order, same value types (a read
    gives a copy; spans that shared one args dict in a pass share one copy); args
    that are not dicts, and leaves that cannot be pickled, are kept as they are.
    """

    __slots__ = ("enabled", "pipes", "_items", "counters", "_packed", "_pack_from", "_counted")

    def __init__(self, enabled: bool = True, spans: list[Span] | None = None,
                 counters: list[Counter] | None = None):
        self.enabled = enabled
        #: False drops every pipe span (trace level "kernels"): stream, host and counter
        #: records stay, so the trace holds one span per task, not one per tile stage
        self.pipes = True
        self._items: list = list(spans) if spans else []   # _items[:_pack_from] are Span objects
        self._packed = SpanColumns()     # packed entries, recorded after _items[:_pack_from]
        self._pack_from = len(self._items)
        #: (_pack_from, slots of _items counted, entries among _items[_pack_from:those]) for __len__
        self._counted: tuple[int, int, int] | None = None
        self.counters: list[Counter] = list(counters) if counters else []

    @property
    def spans(self) -> list[Span]:
        """Every span recorded so far, as ``Span`` objects, in recording order. The list
        is the recorder's own: read it again after more recording."""
        items = self._items
        pf = self._pack_from
        if len(self._packed) or pf < len(items):
            tail = [_thaw(e) for e in self._packed.entries()]
            tail += [_thaw(e) for e in _entries(items, pf)]
            items[pf:] = tail          # in place: the pipeline appends through a cached list.append
            self._packed.clear()
            self._pack_from = len(items)
            self._counted = None
        return items

    def entries(self) -> list[tuple]:
        """Every span recorded so far, in recording order (the order of :attr:`spans`),
        as plain tuples, without building ``Span`` objects or changing what is stored:

        * a pipe span as the 6-tuple ``(track, name, start_ns, dur_ns, tile, nbytes)``
          (as a ``Span`` its cat is "pipe" and its args ``{"tile": tile, "bytes":
          nbytes}``, or ``{"tile": tile}`` when ``nbytes`` is 0);
        * any other span as the 8-tuple of the ``Span`` fields in order ``(track,
          name, start_ns, dur_ns, cat, args, flow_id, flow_out)``; spans that shared
          one args dict in a packing pass share one rebuilt dict (as in ``spans``).

        For a reader that only formats (``acl_runtime.trace_writer``): about a third
        of the time of a trace write went into ``Span`` objects and pipe args dicts."""
        items = self._items
        pf = self._pack_from
        out = [_as_tuple(s) for s in items[:pf]] if pf else []
        out += self._packed.entries()
        out += map(_as_tuple, _entries(items, pf))
        return out

    def span(self, track: tuple[str, str], name: str, start_ns: float, dur_ns: float, cat: str,
             args: dict[str, Any] | None = None, flow_id: int | None = None, flow_out: bool = False) -> None:
        if self.enabled:
            items = self._items
            items.extend((_MARK, track, name, start_ns, dur_ns, cat, args, flow_id, flow_out))
            if len(items) - self._pack_from >= PACK_EVERY:
                self.pack()

    def pack(self) -> None:
        """Move the entries recorded since the last pass into a packed chunk (see the
        class docstring). Called by the runtime after each synchronization (and by
        :meth:`span` every :data:`PACK_EVERY` entries); changes nothing ``spans``
        returns."""
        items = self._items
        pf = self._pack_from
        if pf >= len(items):
            return
        cache: dict[int, int] = {}
        seg = items[pf:]
        packed = self._packed
        add_span, add_spans, add_pipe, add_pipes = packed.add_span, packed.add_spans, packed.add_pipe, packed.add_pipes
        i, n = 0, len(seg)
        while i < n:
            e = seg[i]
            if e is _MARK:   # a run of spans: stored in bulk
                j = i + _FLAT
                while j < n and seg[j] is _MARK:
                    j += _FLAT
                if j - i > _FLAT:
                    add_spans(seg[i:j], cache)
                else:
                    add_span(*seg[i + 1:i + _FLAT], cache)
                i = j
            elif type(e) is tuple and len(e) == 6:   # a run of pipe spans: stored in bulk
                j = i + 1
                while j < n and type(seg[j]) is tuple and len(seg[j]) == 6:
                    j += 1
                if j - i > 1:
                    add_pipes(seg[i:j])
                else:
                    add_pipe(e)
                i = j
            else:
                packed._other(e)
                i += 1
        del items[pf:]                 # in place (see spans)
        self._counted = None

    def pipe_span(self, track: tuple[str, str], name: str, start_ns: float, dur_ns: float, tile: int,
                  nbytes: int) -> None:
        """A "pipe" span of tile ``tile`` with args ``{"tile", "bytes"}`` (bytes only if
        nonzero). Callers check ``enabled`` first."""
        if self.pipes:
            self._items.append((track, name, start_ns, dur_ns, tile, nbytes))

    def pipe_sink(self):
        """The append function behind :meth:`pipe_span`, for a hot loop to cache: call
        it with one 6-tuple ``(track, name, start_ns, dur_ns, tile, nbytes)`` per pipe
        span. It stays valid across :meth:`pack` and reads of :attr:`spans` (both
        work on the list in place) until :meth:`clear`. Callers check ``enabled``
        first. With :attr:`pipes` False it is a function that keeps nothing."""
        return self._items.append if self.pipes else _drop

    def counter(self, track: str, name: str, ts_ns: float, value: float) -> None:
        if self.enabled:
            self.counters.append(Counter(track, name, ts_ns, value))

    def clear(self) -> None:
        """Forget every span and counter (a cached :meth:`pipe_sink` stays valid)."""
        self._items.clear()
        self._packed.clear()
        self._pack_from = 0
        self._counted = None
        self.counters.clear()

    def __len__(self) -> int:
        """Spans recorded so far: constant time right after :meth:`pack` or a read of
        :attr:`spans`, else linear in the entries recorded since the last pack, read or
        ``len`` (the count of the entries not yet packed is kept between calls, so a
        caller that asks after every device run does not rescan them)."""
        pf, items = self._pack_from, self._items
        c = self._counted
        start, n = (c[1], c[2]) if c is not None and c[0] == pf and c[1] <= len(items) else (pf, 0)
        n += sum(1 for _ in _entries(items, start))
        self._counted = (pf, len(items), n)
        return pf + len(self._packed) + n

    def tail_slots(self) -> int:
        """List slots recorded since the last :meth:`pack` (or read of :attr:`spans`):
        one per pipe span, nine per other span; constant time."""
        return len(self._items) - self._pack_from

    def span_counts(self) -> tuple[int, int]:
        """(spans, of which pipe spans) recorded so far, without building ``spans``
        (for a trace size estimate before writing)."""
        pf = self._pack_from
        items = self._items
        pipes = sum(1 for s in items[:pf] if s.cat == "pipe") + self._packed.pipe_count()
        rest = 0
        for e in _entries(items, pf):
            rest += 1
            if type(e) is tuple and len(e) == 6:
                pipes += 1
        return pf + len(self._packed) + rest, pipes

    def __repr__(self) -> str:
        return f"TraceRecorder(enabled={self.enabled}, spans={len(self)}, counters={len(self.counters)})"


def _drop(entry) -> None:
    """The pipe sink of a recorder that keeps no pipe spans."""


def _as_tuple(e) -> tuple:
    """A stored entry as :meth:`TraceRecorder.entries` gives it: a pipe 6-tuple or a
    span 8-tuple as it is, a ``Span`` (or another record) as the 8-tuple of its fields."""
    if type(e) is tuple and len(e) in (6, 8):
        return e
    return (e.track, e.name, e.start_ns, e.dur_ns, e.cat, e.args, e.flow_id, e.flow_out)


def _thaw(e) -> Span:
    """A recorder entry (Span, pipe 6-tuple, or span 8-tuple) as a Span."""
    if type(e) is Span:
        return e
    if len(e) == 6:
        return Span(e[0], e[1], e[2], e[3], "pipe", {"tile": e[4], "bytes": e[5]} if e[5] else {"tile": e[4]})
    return Span(*e)
