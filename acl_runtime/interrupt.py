"""Ctrl-C while the simulated device runs: the interrupt lands between SimPy steps.

A KeyboardInterrupt raised in the middle of a SimPy step (inside a kernel's
process) or half-way through handing a launch to the device would kill that
process, or drop or duplicate launches, and the next synchronize would report
success with work silently lost. So while the device runs (:func:`run_until`) and
while the launch queue is handed over (:func:`deferred_sigint`, used by
``LaunchQueue.flush``), SIGINT only sets a flag; the run checks it between steps,
the hand-over at its end, and raises KeyboardInterrupt there, leaving every queued
task in place: the next synchronize runs them to completion.

Only the main thread receives signals (Python ``signal`` module), and only when
the default handler is installed is it replaced for the duration; a program with
its own SIGINT handler keeps it.
"""
from __future__ import annotations

import contextlib
import signal
import threading
from typing import Iterator

#: SimPy steps between two checks of the interrupt flag (and two progress calls)
CHECK_EVERY = 256
_MESSAGE = "interrupted while the device ran; queued work is kept and runs at the next synchronize"


@contextlib.contextmanager
def deferred_sigint() -> Iterator[list | None]:
    """Within the block SIGINT only appends to the yielded list; KeyboardInterrupt is
    raised when the block ends (if one came). Yields None (and changes nothing) off
    the main thread, under a non-default SIGINT handler, or when nested."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield None
        return
    hit: list[int] = []
    signal.signal(signal.SIGINT, lambda signum, frame: hit.append(signum))
    try:
        yield hit
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if hit:
        raise KeyboardInterrupt(_MESSAGE)


def run_until(dev, event, progress=None, flush=None) -> bool:
    """``flush()`` (the launch queue's hand-over, if given) then
    ``dev.run_until(event, progress)`` (``npu_sim.Device.run_until``: True when
    ``event`` was processed, False on a deadlock), with SIGINT deferred to the next
    step boundary, where it raises KeyboardInterrupt with the device consistent.
    An ``event`` already processed (a blocking copy run at submission,
    ``npu_sim.memcpy_fast``) needs no run: only ``flush()``."""
    if event is not None and event.callbacks is None:   # processed: dev.run_until would take no step
        if flush is not None:
            flush()
        return True
    with deferred_sigint() as hit:
        if flush is not None:
            flush()
        if hit is None:
            return dev.run_until(event, progress)

        def check(done: int) -> None:
            if hit:
                raise KeyboardInterrupt(_MESSAGE)
            if progress is not None:
                progress(done)

        return dev.run_until(event, check, CHECK_EVERY)


__all__ = ["run_until", "deferred_sigint", "CHECK_EVERY"]
