"""``device._due_event(env, env.now + d)`` (a kernel's launch wait) queues what
``env.timeout(d)`` queues, the reference: the same (time, priority, number) queue
entry, and a process yielding it resumes at the same clock with the same value."""
from __future__ import annotations

import simpy

from npu_sim.device import _due_event


def _trace(make):
    env = simpy.Environment()
    seen = []

    def proc():
        for d in (0.0, 1e-9, 3.5, 1e6 + 0.1):
            ev = make(env, d)
            seen.append(tuple(sorted(e[:3] for e in env._queue)))
            val = yield ev
            seen.append((env.now, val))

    env.process(proc())
    env.process(proc())
    env.run()
    return seen


def test_due_event_queues_what_timeout_queues():
    ref = _trace(lambda env, d: env.timeout(d))
    new = _trace(lambda env, d: _due_event(env, env.now + d))
    assert ref == new
    assert len(ref) == 16
