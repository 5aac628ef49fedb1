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


class TraceRecorder:
    """Collects spans and counters. ``enabled=False`` keeps nothing (fast path).

    ``spans`` is a plain list of :class:`Span`. Pipe spans recorded by the tile
    pipeline (:meth:`pipe_span`, the hot path) are kept as tuples and turned into
    ``Span`` objects the first time ``spans`` is read, in recording order.
    """

    __slots__ = ("enabled", "_items", "_raw", "counters")

    def __init__(self, enabled: bool = True, spans: list[Span] | None = None,
                 counters: list[Counter] | None = None):
        self.enabled = enabled
        self._items: list = list(spans) if spans else []
        self._raw = 0
        self.counters: list[Counter] = list(counters) if counters else []

    @property
    def spans(self) -> list[Span]:
        if self._raw:
            self._items = [s if type(s) is Span else
                           Span(s[0], s[1], s[2], s[3], "pipe", {"tile": s[4], "bytes": s[5]} if s[5] else {"tile": s[4]})
                           for s in self._items]
            self._raw = 0
        return self._items

    def span(self, track: tuple[str, str], name: str, start_ns: float, dur_ns: float, cat: str,
             args: dict[str, Any] | None = None, flow_id: int | None = None, flow_out: bool = False) -> None:
        if self.enabled:
            self._items.append(Span(track, name, start_ns, dur_ns, cat, args, flow_id, flow_out))

    def pipe_span(self, track: tuple[str, str], name: str, start_ns: float, dur_ns: float, tile: int,
                  nbytes: int) -> None:
        """A "pipe" span of tile ``tile`` with args ``{"tile", "bytes"}`` (bytes only if
        nonzero). Callers check ``enabled`` first."""
        self._items.append((track, name, start_ns, dur_ns, tile, nbytes))
        self._raw += 1

    def counter(self, track: str, name: str, ts_ns: float, value: float) -> None:
        if self.enabled:
            self.counters.append(Counter(track, name, ts_ns, value))

    def clear(self) -> None:
        self._items.clear()
        self._raw = 0
        self.counters.clear()

    def __repr__(self) -> str:
        return f"TraceRecorder(enabled={self.enabled}, spans={len(self._items)}, counters={len(self.counters)})"
