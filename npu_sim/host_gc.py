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


@contextmanager
def gc_paused() -> Iterator[None]:
    """Run the body with the cyclic garbage collector disabled and enable it again after,
    also when the body raises. Nothing changes when the collector was already disabled
    (a caller's choice, or an outer :func:`gc_paused`) or ``$NPU_SIM_GC_PAUSE`` is off."""
    if not gc.isenabled() or not env_flag(GC_PAUSE_ENV):
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def with_gc_paused(fn: F) -> F:
    """Decorator: ``fn`` runs inside :func:`gc_paused`."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with gc_paused():
            return fn(*args, **kwargs)
    return wrapper  # type: ignore[return-value]


__all__ = ["GC_PAUSE_ENV", "gc_paused", "with_gc_paused"]
