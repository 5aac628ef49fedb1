"""Kernel launches: the deferred launch queue behind aclnn phase 2, and direct launches.

Phase 2 (:meth:`LaunchQueue.launch_prepared`) charges the host clock, records its
host span and queues the kernel in ``pending``; the kernels are handed to the
simulator (one SimPy process each) by :meth:`LaunchQueue.flush`, which every call
that lets the device run or enqueues other work on it calls first. The device
clock only moves inside those calls, so deferring the hand-over changes no
simulated time and keeps the submission order; it keeps SimPy work (part of
simulating the device, not of the host API) out of the phase-2 call.
"""
from __future__ import annotations

from npu_sim import KernelConfigError
from npu_sim.program import KernelLaunch, KernelSpec

from . import constants as C
from .capture import manager as _capture
from .errors import AclError
from .host_clock import HOST_COST_NS
from .interrupt import deferred_sigint
from .profiler import HOST_TRACK
from .sanitizer import SANITIZER


class LaunchQueue:
    """Launches of one ACL context. ``rt``: the :class:`acl_runtime.runtime.Runtime`
    (its context, profiler and streams)."""

    def __init__(self, rt) -> None:
        self.ctx = rt.context
        self.profiler = rt.profiler
        self.streams = rt.streams
        self.pending: list[tuple] = []

    def reset(self) -> None:
        """Drop queued launches (aclFinalize, after the queue was flushed)."""
        self.pending = []

    def launch_kernel(self, stream, launch: KernelLaunch, host_args: dict | None = None) -> None:
        """Enqueue a kernel on ``stream`` now (after any deferred launches); charges the
        host a launch. Raises AclError (100000) for a bad stream or a kernel the chip
        cannot run."""
        dev = self.ctx.need_device()
        s = self.streams.stream(stream)
        self.flush()
        t, fid = self.profiler.host_span("aclnn_launch", f"aclnn{launch.spec.name}", host_args, flow=True)
        if self.streams.capturing and _capture(self.streams.rt).task(s, "launch", launch.spec.name, (launch,)):
            return
        try:
            dev.submit_kernel(s, launch, t, fid)
        except KernelConfigError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None
        if SANITIZER.enabled:   # no byte ranges known: it orders and names, it never races
            SANITIZER.task(s.stream_id, launch.spec.name)

    def check_kernel(self, spec: KernelSpec) -> None:
        """Raise AclError (100000) if the current chip cannot run ``spec`` (a buffer
        over capacity, no blocks, no cores of its type; 100001/100004 without a
        device). Phase 1 calls this so that phase 2 never has to."""
        try:
            self.ctx.need_device().check_kernel(KernelLaunch(spec, None))
        except KernelConfigError as e:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, str(e)) from None

    def launch_prepared(self, stream, kernels: list, launch_args: list, name: str, addrs: list,
                        workspace: int, ranges=None) -> None:
        """Phase 2's runtime half, for opsnn: per kernel, charge one ``aclnn_launch``,
        record the host launch span ``name`` (with a flow arrow to the device task it
        creates) and queue the kernel bound to ``addrs`` (slot addresses) and
        ``workspace``. ``kernels``: objects with ``spec`` and ``make_body(addrs, ws)``
        already checked against the chip (:meth:`check_kernel`). Raises AclError for a
        stream that does not exist or when no device is set. ``ranges``: for the stream
        sanitizer, ``(reads, writes, workspace)`` of (address, nbytes) pairs (the caller
        builds it on every launch): the stream sanitizer checks them while ``SANITIZER.enabled``
        and the device's L2 model keeps them across kernels (``KernelLaunch.gm``)."""
        ctx = self.ctx
        dev = ctx.device
        s = None
        if dev is not None:
            if stream is None or stream.__class__ is int:   # the common case, checked cheaply
                s = ctx.default_stream if not stream else dev.streams.get(stream)
        if s is None:
            s = self.streams.stream(stream)   # validates: no device, numpy ints, bools, junk, unknown ids
        clock = ctx.clock
        prof = self.profiler
        span = prof.host.span
        pending = self.pending
        dur = HOST_COST_NS["aclnn_launch"]
        for k, args in zip(kernels, launch_args):
            start = clock.now_ns
            clock.now_ns = end = start + dur
            prof.flow = fid = prof.flow + 1
            span(HOST_TRACK, name, start, dur, "host", args, fid, True)
            pending.append((s, k, addrs, workspace, end, fid, ranges))
        if ranges is not None and SANITIZER.enabled and s.stream_id not in self.streams.capturing:   # replays: capture.py
            SANITIZER.task(s.stream_id, name, ranges[0], ranges[1], ranges[2])

    def flush(self) -> None:
        """Hand deferred phase-2 launches to the device, in order. A kernel the device
        refuses (it was checked in phase 1, so only if the chip changed) becomes an
        error of its stream, reported at the next synchronize."""
        pending = self.pending
        if not pending:
            return
        self.pending = []
        dev = self.ctx.device
        if dev is None:
            return
        backed = dev.backed
        capturing = self.streams.capturing
        done = 0
        try:
            with deferred_sigint():   # Ctrl-C: raised after the hand-over, never half-way (acl_runtime.interrupt)
                for s, k, addrs, ws, t, fid, gm in pending:
                    if capturing and _capture(self.streams.rt).task(s, "kernel", k.spec.name, (k, addrs, ws, gm)):
                        done += 1
                        continue
                    try:
                        dev.submit_kernel(s, KernelLaunch(k.spec, k.make_body(addrs, ws) if backed else None, gm),
                                          t, fid)
                    except Exception as e:  # noqa: BLE001 - a bad kernel is a stream error, never a crash
                        s.errors.append(f"{k.spec.name}: {e}")
                    done += 1
        finally:
            if done < len(pending):   # interrupted (Ctrl-C): keep what was not handed over, in order
                self.pending = pending[done:] + self.pending
