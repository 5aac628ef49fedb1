"""A blocking copy on an idle device, run without the SimPy event loop (issue 17).

A synchronous aclrtMemcpy (or aclrtMemset) enqueues one copy task and the host then
waits for it: ``Device.run_until`` steps SimPy until the task's end. When nothing
else is queued on the device (the SimPy queue is empty and the copy's stream has no
unfinished task), that run is a fixed sequence: the task starts (its stream runner's
wake or Initialize event, at the current time), waits for its host enqueue time
(``env.timeout(enqueue_ns - now)``, due at ``now + (enqueue_ns - now)``), books the
host link or HBM, waits for the copy (``env.timeout(fin - t0)``), moves the bytes,
records its span, and ends. Nothing else can run in between, so the same
computation done here directly -- the task's own generator
(``Device._run_memcpy``) driven by hand, its one timeout taken straight off the
queue and the clock set to the timeout's due time -- gives the same clock, the same
bandwidth bookings and the same span, float for float. What it saves per copy: the
runner's wake, the enqueue timeout, the process steps and the task's ``done``
event going through SimPy (DenseNet-121's prepare runs ~670 blocking weight
uploads).

``ENABLED = False`` keeps every copy on the SimPy path (the reference that
tests/perf/test_upload_memcpy_fast.py compares with, within one run).
"""
from __future__ import annotations

from heapq import heappop
from typing import TYPE_CHECKING

import simpy

if TYPE_CHECKING:  # pragma: no cover
    from .device import Device, Stream

#: False: every blocking copy runs through SimPy (the reference path)
ENABLED = True


class NotFastError(RuntimeError):
    """The task did not run as :func:`run_now` expects (one timeout on an empty queue)."""


def idle(dev: "Device", stream: "Stream") -> bool:
    """True when a task submitted now on ``stream`` would be the only thing the device
    can run: no SimPy event queued, and the stream's newest task (if any) finished.
    (A stream runner with no task then waits on its wake event, which only a
    submission triggers.)"""
    if dev.env._queue:
        return False
    last = stream.last
    if last is not None and last.callbacks is not None:   # not processed
        return False
    tq = stream.runner
    return tq is None or not tq.tasks


def run_now(dev: "Device", stream: "Stream", make, args: tuple, enqueue_ns: float, name: str) -> simpy.Event:
    """Run the copy task ``make(*args)`` (a generator that yields exactly one
    ``env.timeout``, as ``Device._run_memcpy``) on idle ``stream`` to its end now, as
    ``Device.run_until`` would step it (module docstring). Call only when
    :func:`idle` holds and the host waits for the copy at once. Returns the task's
    end: a processed SimPy event (what ``Stream.last`` holds). A failure in the task
    becomes an error of the stream (``"<name>: <exception>"``), never a crash, as
    on the SimPy path. Raises :class:`NotFastError` if the task yields anything but a single
    timeout due on an otherwise empty queue."""
    env = dev.env
    queue = env._queue
    now = env._now
    if enqueue_ns > now:   # the task's wait for its host time: env.timeout(enqueue_ns - now)
        env._now = now + (enqueue_ns - now)
    stream.task_count += 1
    try:
        gen = make(*args)
        ev = next(gen)
        while True:
            if len(queue) != 1 or queue[0][3] is not ev:
                raise NotFastError(f"{name}: the fast path expects one timeout on an empty queue")
            env._now = heappop(queue)[0]
            cbs, ev.callbacks = ev.callbacks, None   # processed
            for cb in cbs:   # none: the task only waits on it
                cb(ev)
            ev = gen.send(ev._value)
    except StopIteration:
        pass
    except NotFastError:
        raise
    except Exception as exc:  # a task failure is a stream error, never a crash
        stream.errors.append(f"{name}: {exc}")
    done = simpy.Event(env)
    done._ok = True
    done._value = None
    done.callbacks = None
    stream.last = done
    return done


__all__ = ["ENABLED", "NotFastError", "idle", "run_now"]
