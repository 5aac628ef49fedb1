"""Python's cyclic garbage collector paused around the host phases that build many objects.

Why: phase 1 of a whole model, its run and the trace build allocate hundreds of
thousands of small containers (tensor descriptors, tiling structs, block programs,
spans) that stay alive; every 700 net allocations CPython runs a generation-0
collection, and each time generation 2's threshold trips it walks the whole heap.
Measured on light DenseNet-121 with ``--timing-only`` (2-core CI machine, 2026-12-02,
``benchmarks/sim_speed.py --child``): 0.74 s with the collector on, 0.58-0.60 s with it
off. The objects these phases free are freed by reference counting as before; only
cycle detection waits until the phase ends, and the cyclic garbage a phase leaves is
small (about 6,000 objects for a DenseNet-121 run, counted with ``gc.collect()``).

When a pause ends, what the phase built is moved straight into the oldest generation
(``gc.freeze()`` then ``gc.unfreeze()``, :func:`_promote`) instead of being walked by the
generation-0 collection that the first allocation after ``gc.enable()`` would run over
all of it: those objects mostly live on (the program, the records), and the walk cost
9-45 ms per run (measured with ``gc.callbacks`` on light ResNet-50 / DenseNet-121
timing-only, same machine: 9.4 -> 1.2 ms and 45 -> 1.6 ms). Cyclic garbage among them is
found by the next full collection; so that it cannot pile up in a long process (a sweep
worker, the test suite), a full ``gc.collect()`` runs at a pause's end once more than
:data:`PROMOTE_LIMIT` objects were promoted since the last full collection.

``NPU_SIM_GC_PAUSE=0`` (or ``off``; npu_sim/env_flags.py) keeps the collector running (to
compare, or to debug a leak).
"""
from __future__ import annotations

import functools
import gc
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from .env_flags import env_flag

#: environment variable: "0" keeps the cyclic garbage collector running in the paused phases
GC_PAUSE_ENV = "NPU_SIM_GC_PAUSE"

F = TypeVar("F", bound=Callable)

#: objects promoted into the oldest generation (:func:`_promote`) after which a pause's end
#: runs a full collection instead (about 100-300 MiB of small containers)
PROMOTE_LIMIT = 1_000_000

#: [objects promoted since the last full collection, full collections counted then
#: (``gc.get_stats()[2]["collections"]``)]
_book = [0, 0]


def _promote() -> None:
    """Move every object the collector tracks into the oldest generation without walking
    them (``gc.freeze()`` + ``gc.unfreeze()``: list splices, O(1)), or run a full
    ``gc.collect()`` when more than :data:`PROMOTE_LIMIT` objects were promoted since
    the last full collection (ours or CPython's own). The objects a pause built are
    counted by ``gc.get_count()[0]`` (net tracked allocations since the last collection,
    O(1); ``gc.get_freeze_count()`` would walk the whole heap: with the test suite's heap
    that made 20 onnx node-test cases take 237 s instead of 7)."""
    full = gc.get_stats()[2]["collections"]
    if full != _book[1]:
        _book[0] = 0
    _book[0] += max(gc.get_count()[0], 0)
    if _book[0] > PROMOTE_LIMIT:
        gc.collect()
        _book[0] = 0
    else:
        gc.freeze()
        gc.unfreeze()
    _book[1] = gc.get_stats()[2]["collections"]


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the body with the cyclic garbage collector disabled and enable it again after,
    also when the body raises (what the body built is promoted first: :func:`_promote`). Nothing changes when the collector was already disabled
    (a caller's choice, or an outer :func:`gc_paused`) or ``$NPU_SIM_GC_PAUSE`` is off."""
    if not gc.isenabled() or not env_flag(GC_PAUSE_ENV):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        _promote()
        gc.enable()


def with_gc_paused(fn: F) -> F:
    """Decorator: ``fn`` runs inside :func:`gc_paused`."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with gc_paused():
            return fn(*args, **kwargs)
    return wrapper  # type: ignore[return-value]


__all__ = ["GC_PAUSE_ENV", "PROMOTE_LIMIT", "gc_paused", "with_gc_paused"]
