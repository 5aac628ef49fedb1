"""``CoreScheduler.take_free(kind, n)`` (the fast path's cores for a kernel's blocks,
hardware/cores.py) hands out what ``n`` calls of ``acquire(kind)`` hand out, the
reference: the same cores in the same order, the same free lists after, events once
the cores run out, on a separated and a coupled chip, with cores held before."""
from __future__ import annotations

import pytest
import simpy

from npu_sim.chips import PRESETS
from npu_sim.hardware.cores import CoreScheduler, make_cores
from npu_sim.program import CoreType


def _sched(chip, held: int):
    s = CoreScheduler(simpy.Environment(), chip, make_cores(chip))
    for _ in range(held):   # a few cores busy, given back out of order
        s.acquire(CoreType.AIV)
    if held:
        s.release(s.cores[CoreType.AIV][1])
    return s


def _state(s, got):
    names = [g.name if not isinstance(g, simpy.Event) else "event" for g in got]
    return names, {k: [c.name for c in v] for k, v in s.free.items()}, [c.free for v in s.cores.values() for c in v]


@pytest.mark.parametrize("chip", ["ascend910b2", "ascend310p3"])
@pytest.mark.parametrize("kind", [CoreType.AIC, CoreType.AIV])
@pytest.mark.parametrize("held", [0, 3])
def test_take_free_equals_acquire(chip, kind, held):
    c = PRESETS[chip]
    cap = sum(len(v) for v in make_cores(c).values())
    for n in (0, 1, 2, 7, cap + 2):
        ref, new = _sched(c, held), _sched(c, held)
        got_ref = [ref.acquire(kind) for _ in range(n)]
        got_new = new.take_free(kind, n)
        assert _state(ref, got_ref) == _state(new, got_new)
        assert len(ref.waiters) == len(new.waiters)
