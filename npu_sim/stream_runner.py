"""The stream runner: one long-lived SimPy process per hardware stream (issue 17).

A stream runs its tasks (kernels, copies, EVENT_RECORD, STREAM_WAIT_EVENT) in order.
The reference design (``Device.stream_runner = False``) gives every task its own
SimPy process, which costs per task a process start and a process end event (the
next task starts in the end event's step). Here one runner process per stream
takes the tasks from the stream's queue (:class:`TaskQueue`) and runs each task's
generator itself, and each task gets a plain ``simpy.Event`` ``done`` standing for
the old process end (``Stream.last``, what synchronizing calls wait on, what
``submit_*`` returns, where graph replay adds its kernel-end callbacks).

Same times, same order of events. The old end event of a task would be scheduled
at the task's end (NORMAL priority, now) and processed in a later step; its
callbacks (graph replay's samples, then the next task's start) ran in that step.
The runner processes ``done`` in the task's own last step instead, calling the same
callbacks and then starting the next task -- with no SimPy event -- only when that
is provably the very next thing SimPy would do (:func:`run_stream`):

* the runner's resume is the last callback of the event being processed (nothing
  else runs later in this step; the runner tracks the callback list of each event
  it yields);
* no event is queued at the current time (every queued one is due later, so the
  end event, being due now, would be processed next);
* :meth:`Device.run_until` drives the clock and will not stop after this step (its
  target is not the event being processed: it would stop with the end event still
  queued, and the host could then queue tasks whose start events go first).

Otherwise ``done`` is scheduled as a SimPy event (exactly what the process end
did) and the runner resumes from it. An idle runner waits for a wake event that
the next submission schedules with URGENT priority, as SimPy schedules a new
process's Initialize event, so a task on an idle stream starts in the same order
as before. tests/perf/test_runner_exact.py compares both designs float for float.
"""
from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

import simpy
from simpy.events import URGENT

if TYPE_CHECKING:  # pragma: no cover
    from .device import Device, Stream


class TaskQueue:
    """A stream's runner state: ``tasks`` (a deque of ``(make, args, enqueue_ns,
    name, done)``: the task's generator function, its arguments, the host time (ns)
    before which it may not start, its error label and its ``done`` event), the
    runner ``proc`` (None until the first task) and ``wake``, the event the idle
    runner waits on (None while it runs or waits for a task's ``done``)."""

    __slots__ = ("tasks", "proc", "wake")

    def __init__(self) -> None:
        self.tasks: deque = deque()
        self.proc: simpy.Process | None = None
        self.wake: simpy.Event | None = None


def submit(dev: "Device", stream: "Stream", make, args: tuple, enqueue_ns: float, name: str) -> simpy.Event:
    """Queue ``make(*args)`` as ``stream``'s next task (see the module docstring);
    returns its ``done`` event. Starts the stream's runner (its Initialize event) or
    wakes it (an URGENT event now) when it is idle, else the runner takes the task
    when it has finished the ones before."""
    env = dev.env
    tq = stream.runner
    if tq is None:
        tq = stream.runner = TaskQueue()
    done = simpy.Event(env)
    tq.tasks.append((make, args, enqueue_ns, name, done))
    stream.last = done
    if tq.proc is None:
        tq.proc = env.process(run_stream(dev, stream, tq))
    elif tq.wake is not None:
        wake, tq.wake = tq.wake, None
        wake._ok = True
        wake._value = None
        env.schedule(wake, URGENT)
    return done


def _resumed_last(cbs, proc) -> bool:
    """True when ``proc``'s resume is the last entry of ``cbs``, the callback list of
    the event that has just resumed it (None: it was already processed, so the
    resume happened in the same step as before and the caller keeps its flag)."""
    return getattr(cbs[-1], "__self__", None) is proc


def run_stream(dev: "Device", stream: "Stream", tq: TaskQueue):
    """SimPy process body of ``stream``'s runner: forever, take the next task, wait for
    its host time, drive its generator (forwarding every event it yields, and any
    failure into it), turn an exception into an error of the stream (never a
    crash), then finish it (the module docstring: inline or through SimPy); when
    the queue is empty, wait to be woken. ``dev._sole`` tells ``Device._one_event_ok``
    whether the step that starts a task has the runner as its last callback."""
    env = dev.env
    tasks = tq.tasks
    proc = tq.proc
    sole = True   # the Initialize event has one callback: this process's resume
    while True:
        make, args, enqueue_ns, name, done = tasks.popleft()
        if enqueue_ns > env._now:
            yield env.timeout(enqueue_ns - env._now)   # our own timeout: one callback
            sole = True
        dev._sole = sole
        try:
            gen = make(*args)
            ev = next(gen)
            while True:
                cbs = ev.callbacks
                try:
                    val = yield ev
                except BaseException as exc:   # a failed event: into the task, as SimPy would
                    if cbs is not None:
                        sole = _resumed_last(cbs, proc)
                    ev = gen.throw(exc)
                    continue
                if cbs is not None:
                    sole = _resumed_last(cbs, proc)
                ev = gen.send(val)
        except StopIteration:
            pass
        except Exception as exc:  # a task failure is a stream error, never a crash
            stream.errors.append(f"{name}: {exc}")
        # the task has ended: its ``done`` (the old process end event)
        queue = env._queue
        until = dev._until
        if (sole and dev._running and (not queue or queue[0][0] > env._now)
                and (until is None or until.callbacks is not None)):
            cbs = done.callbacks
            done._ok = True
            done._value = None
            done.callbacks = None
            for cb in cbs:
                cb(done)
        else:
            done._ok = True
            done._value = None
            env.schedule(done)
            cbs = done.callbacks
            yield done
            sole = _resumed_last(cbs, proc)
        if not tasks:
            wake = tq.wake = simpy.Event(env)
            yield wake   # scheduled by submit, one callback: ours
            sole = True


__all__ = ["TaskQueue", "submit", "run_stream"]
