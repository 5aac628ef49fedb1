"""The plain records traces are made of: spans and counter samples, times in ns.

``traces`` imports nothing of the simulator or the runtime. Writers accept any
objects with these attributes (the simulator's ``npu_sim.trace.Span`` and
``Counter`` have the same fields); readers (:mod:`traces.load`) build these.

A *track* is a (process, thread) pair of names, e.g. ("host", "thread 0"),
("device 0", "stream 1"), ("device 0", "AIC3 MTE2"); spans on one track never
overlap (:func:`traces.chrome_trace.check_no_overlap`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

#: the attributes a span record must have (``args``, ``flow_id``, ``flow_out`` are optional)
SPAN_FIELDS = ("track", "name", "start_ns", "dur_ns", "cat")


@dataclass(slots=True)
class Span:
    """A timed interval on ``track``: ``start_ns`` and ``dur_ns`` in ns. ``cat`` groups
    spans: "host", "task", "memcpy", "pipe". ``flow_id`` links a host launch span
    (``flow_out`` True) to the device task it created."""

    track: tuple[str, str]
    name: str
    start_ns: float
    dur_ns: float
    cat: str
    args: dict[str, Any] | None = None
    flow_id: int | str | None = None
    flow_out: bool = False


@dataclass(slots=True)
class Counter:
    """A sampled value at ``ts_ns`` (ns), e.g. device memory in use (bytes)."""

    track: str
    name: str
    ts_ns: float
    value: float


def is_span_record(obj: Any) -> bool:
    """True if ``obj`` has the attributes of a span record (:data:`SPAN_FIELDS`)."""
    return all(hasattr(obj, f) for f in SPAN_FIELDS)


def finite(v: Any, default: float = 0.0) -> float:
    """``v`` as a finite float, else ``default`` (for numbers read from span args)."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        return default
    return f if math.isfinite(f) else default
