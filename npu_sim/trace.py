"""Trace records collected while the simulation runs. Times are ns.

A *track* is a (process, thread) pair of names, e.g. ("host", "thread 0"),
("device 0", "stream 1"), ("device 0", "AIC3 MTE2"). Spans on one track never
overlap: each track belongs to one sequential actor (a host thread, an in-order
stream, or one pipe of one core). The Chrome trace writer in ``traces`` turns
these into JSON; nothing here knows that format.
"""
from __future__ import annotations

from dataclasses import dataclass, field
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


@dataclass
class TraceRecorder:
    """Collects spans and counters. ``enabled=False`` keeps nothing (fast path)."""

    enabled: bool = True
    spans: list[Span] = field(default_factory=list)
    counters: list[Counter] = field(default_factory=list)

    def span(self, track: tuple[str, str], name: str, start_ns: float, dur_ns: float, cat: str,
             args: dict[str, Any] | None = None, flow_id: int | None = None, flow_out: bool = False) -> None:
        if self.enabled:
            self.spans.append(Span(track, name, start_ns, dur_ns, cat, args, flow_id, flow_out))

    def counter(self, track: str, name: str, ts_ns: float, value: float) -> None:
        if self.enabled:
            self.counters.append(Counter(track, name, ts_ns, value))

    def clear(self) -> None:
        self.spans.clear()
        self.counters.clear()
