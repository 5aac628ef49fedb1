"""A stream sanitizer: device memory races between tasks no event orders.

Off by default and free when off (one attribute test per launch). Turn it on with
``NPU_SIM_SANITIZE=1`` before ``aclInit``, ``Session(sanitize=True)`` or
:func:`enable`. Like compute-sanitizer's racecheck, it reports each finding with both
tasks named (op or copy, stream, and the host call site that enqueued it).

The model is happens-before over the tasks the host enqueues (DESIGN.md's stream and
event rules), kept as one vector clock per stream:

* a task on stream ``s`` is ordered after every earlier task of ``s``;
* ``aclrtRecordEvent(e, s)`` captures ``s``'s clock in ``e``; ``aclrtStreamWaitEvent
  (t, e)`` joins ``e``'s clock into ``t``'s (a wait on a never-recorded event binds to
  its next record, as the device does: the join happens at that record);
* a host synchronize (stream, event or device) orders everything it waited for before
  every task enqueued afterwards.

Two accesses to overlapping device bytes race when at least one writes and neither
is ordered before the other. Kernels read their input tensors and write their output
tensors and their workspace; copies read their source and write their destination.
A race on a workspace range is reported as a shared workspace (two unordered
launches given the same workspace). The other findings:

* **use after free** (:meth:`Sanitizer.free`): device bytes freed on the host (or
  handed back to a stream's pool by a caching allocator) while a task the host has
  not seen finish (or, for a pool, one not ordered before the pool's stream) still
  uses them;
* **event order**: a wait issued before any record of its event binds to the next
  record (DESIGN.md); if that record comes after more work was enqueued on the
  recording stream than existed at the wait, the waiting stream also waits for that
  later work (and hangs if it depends on the waiter: the vllm-ascend "event recorded
  for the next step" report);
* **needless sync** (a warning): aclrtSynchronizeDevice while every pending task is on
  one stream (aclrtSynchronizeStream says what is awaited and leaves other streams
  alone); it names the bubble it leaves, in simulated ns: from the end of that
  stream's last task to the host's return from the call, plus one kernel launch
  (``host_clock.HOST_COST_NS["aclnn_launch"]``): the least time the device then sits
  with no work, since the blocked host enqueued nothing ahead. (Both synchronizes cost
  the host the same here, so the fix is about intent and about other streams: the
  device-wide call also waits for, and serializes against, every other stream.)

Captured graphs: tasks issued on a capturing stream are not run, so the sanitizer does
not see them then; each replay (``aclmdlRIExecuteAsync``, acl_runtime/capture.py) hands
it the graph's kernels, copies, records and waits on the streams they run on, named
"<task> (replay of modelRI N)".

Findings are kept (:func:`findings`) and each is also issued as a :class:`SanitizerWarning`.
"""
from __future__ import annotations

import os
import sys
import warnings
from dataclasses import dataclass

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: npu-sim's own package folders: a call site is the innermost frame outside them
_OURS = tuple(os.path.join(_ROOT, p) + os.sep for p in ("acl_runtime", "opsnn", "npu_sim", "frontend", "traces"))


class SanitizerWarning(UserWarning):
    """A finding of the stream sanitizer (see :class:`Finding`)."""


@dataclass(frozen=True)
class TaskRef:
    """One task as a finding names it: ``what`` (op or copy), ``stream`` id (-1 for a
    host call such as aclrtFree or aclrtSynchronizeDevice), ``site`` (file:line of the
    host call that enqueued it, outside npu-sim's own packages)."""

    what: str
    stream: int
    site: str

    def __str__(self) -> str:
        if self.stream < 0:
            return f"{self.what} on the host (called at {self.site})"
        return f"{self.what} on stream {self.stream} (enqueued at {self.site})"


@dataclass(frozen=True)
class Finding:
    """``kind``: "race", "workspace", "use-after-free", "event-order" or "needless-sync";
    ``first``/``second``: the two tasks (race, workspace: the unordered pair;
    use-after-free: the queued task and the free; event-order: the wait and the record
    it bound to; needless-sync: the pending stream's last task and the synchronize);
    ``lo``/``hi``: the device bytes [lo, hi) concerned (0, 0 when none);
    ``bubble_ns``: needless-sync only, the simulated idle time it cost."""

    kind: str
    first: TaskRef
    second: TaskRef
    lo: int = 0
    hi: int = 0
    bubble_ns: float = 0.0

    def __str__(self) -> str:
        k = self.kind
        if k == "use-after-free":
            return (f"use after free of device bytes [{self.lo:#x}, {self.hi:#x}): {self.second} while {self.first} "
                    "may still use them (synchronize the stream, or make the freeing stream wait on an event "
                    "recorded after the task)")
        if k == "event-order":
            return (f"event order: {self.first} was issued before any record of its event and binds to {self.second}, "
                    "which comes after later work on that stream: the wait also waits for that work (record the "
                    "event right after the work to follow, before issuing the wait)")
        if k == "needless-sync":
            return (f"needless device-wide sync: {self.second} while only stream {self.first.stream} had pending work "
                    f"(last: {self.first}); it cost a {self.bubble_ns:.0f} ns bubble: aclrtSynchronizeStream on "
                    f"stream {self.first.stream} would do")
        what = "two unordered launches share workspace" if k == "workspace" else "data race"
        return (f"{what} on device bytes [{self.lo:#x}, {self.hi:#x}): {self.first} and {self.second}, with no "
                "event or synchronize ordering them (aclrtRecordEvent + aclrtStreamWaitEvent would)")


@dataclass
class _Access:
    lo: int
    hi: int
    write: bool
    workspace: bool
    stream: int
    clock: int
    task: TaskRef


def _site() -> str:
    """file:line of the innermost caller outside npu-sim's packages (a frame walk: no
    source lines are read)."""
    f = sys._getframe(2)
    while f is not None:
        fn = f.f_code.co_filename
        if not os.path.abspath(fn).startswith(_OURS):
            return f"{os.path.basename(fn)}:{f.f_lineno}"
        f = f.f_back
    return "?"


def sanitize_from_env() -> bool:
    """``$NPU_SIM_SANITIZE``: 1/on/yes/true turn the sanitizer on, 0/off/no/false
    (or unset) leave it off; another value gets one warning line (acl_runtime.env)."""
    from .env import env_choice
    words = {w: "1" for w in ("1", "on", "yes", "true")} | {w: "0" for w in ("0", "off", "no", "false")}
    return env_choice("NPU_SIM_SANITIZE", "0", words) == "1"


class Sanitizer:
    """The happens-before tracker. All methods are no-ops unless :attr:`enabled`."""

    def __init__(self) -> None:
        self.enabled = sanitize_from_env()
        self.reset()

    def reset(self) -> None:
        """Forget every task, clock and finding (aclInit / a new device)."""
        self.vc: dict[int, dict[int, int]] = {}      # stream -> {stream: clock it has seen}
        self.host: dict[int, int] = {}               # what the host knows finished
        self.events: dict[int, dict[int, int]] = {}  # event -> clock captured by its latest record
        #: event never recorded -> [(waiting stream, work counts at the wait, wait TaskRef)]
        self.pending_waits: dict[int, list[tuple[int, dict[int, int], TaskRef]]] = {}
        self.work: dict[int, int] = {}             # stream -> kernels and copies enqueued on it
        self.last_task: dict[int, TaskRef] = {}    # stream -> its newest kernel or copy
        self.accesses: list[_Access] = []
        self.found: list[Finding] = []

    def _report(self, f: Finding) -> None:
        self.found.append(f)
        warnings.warn(str(f), SanitizerWarning, stacklevel=3)

    # ---- the clocks --------------------------------------------------------------------------
    def _clock(self, s: int) -> dict[int, int]:
        v = self.vc.get(s)
        if v is None:
            v = self.vc[s] = dict(self.host)
        return v

    @staticmethod
    def _join(into: dict[int, int], other: dict[int, int]) -> None:
        for k, c in other.items():
            if into.get(k, 0) < c:
                into[k] = c

    def record(self, event: int, stream: int) -> None:
        if not self.enabled:
            return
        v = self._clock(stream)
        v[stream] = v.get(stream, 0) + 1
        self.events[event] = dict(v)
        waits = self.pending_waits.pop(event, ())
        if waits:
            rec = TaskRef(f"aclrtRecordEvent {event}", stream, _site())
            for t, work, ref in waits:
                self._join(self._clock(t), self.events[event])
                if self.work.get(stream, 0) > work.get(stream, 0):
                    self._report(Finding("event-order", ref, rec))

    def wait(self, stream: int, event: int) -> None:
        if not self.enabled:
            return
        ev = self.events.get(event)
        if ev is None:
            ref = TaskRef(f"aclrtStreamWaitEvent {event}", stream, _site())
            self.pending_waits.setdefault(event, []).append((stream, dict(self.work), ref))
        else:
            self._join(self._clock(stream), ev)

    def event_synchronized(self, event: int) -> None:
        """The host waited for ``event``'s latest record: what it captured is done."""
        if not self.enabled or event not in self.events:
            return
        self._join(self.host, self.events[event])
        for v in self.vc.values():
            self._join(v, self.host)

    def synchronized(self, streams=None) -> None:
        """The host waited for ``streams`` (None: every stream): their tasks so far
        happen before anything enqueued from now on."""
        if not self.enabled:
            return
        for s in (list(self.vc) if streams is None else streams):
            self._join(self.host, self._clock(s))
        for v in self.vc.values():
            self._join(v, self.host)
        h = self.host
        self.accesses = [a for a in self.accesses if h.get(a.stream, 0) < a.clock]   # drop what is known done

    # ---- tasks -------------------------------------------------------------------------------
    def task(self, stream: int, what: str, reads=(), writes=(), workspace=None) -> None:
        """A task enqueued on ``stream``: ``reads``/``writes`` are (address, nbytes)
        pairs; ``workspace`` (address, nbytes) or None is written too."""
        if not self.enabled:
            return
        v = self._clock(stream)
        v[stream] = c = v.get(stream, 0) + 1
        ref = TaskRef(what, stream, _site())
        new = [_Access(a, a + n, False, False, stream, c, ref) for a, n in reads if n > 0]
        new += [_Access(a, a + n, True, False, stream, c, ref) for a, n in writes if n > 0]
        if workspace is not None and workspace[1] > 0:
            new.append(_Access(workspace[0], workspace[0] + workspace[1], True, True, stream, c, ref))
        self.work[stream] = self.work.get(stream, 0) + 1
        self.last_task[stream] = ref
        for old in self.accesses:
            if old.stream == stream or v.get(old.stream, 0) >= old.clock:
                continue                                   # ordered before this task
            for a in new:
                if (a.write or old.write) and a.lo < old.hi and old.lo < a.hi:
                    kind = "workspace" if (a.workspace and old.workspace) else "race"
                    self._report(Finding(kind, old.task, ref, max(a.lo, old.lo), min(a.hi, old.hi)))
                    break
        self.accesses.extend(new)

    def free(self, addr: int, nbytes: int, what: str = "aclrtFree", stream: int | None = None) -> None:
        """Device bytes [addr, addr + nbytes) leave their owner: freed on the host
        (``stream`` None: every task using them must be known finished, by a
        synchronize) or given back to stream ``stream``'s pool by a caching allocator
        (every task using them must be ordered before that stream's next task). A task
        that is not is reported as a use after free; the bytes' accesses are then
        forgotten (a later owner starts afresh)."""
        if not self.enabled or nbytes <= 0:
            return
        lo, hi = addr, addr + nbytes
        seen = self.host if stream is None else self._clock(stream)
        ref = TaskRef(what, -1 if stream is None else stream, _site())
        keep, reported = [], set()
        for a in self.accesses:
            if not (a.lo < hi and lo < a.hi):
                keep.append(a)
            elif (stream is None or a.stream != stream) and seen.get(a.stream, 0) < a.clock \
                    and id(a.task) not in reported:
                reported.add(id(a.task))
                self._report(Finding("use-after-free", a.task, ref, max(a.lo, lo), min(a.hi, hi)))
        self.accesses = keep

    def device_sync(self, pending: list[int], end_ns: float, host_ns: float) -> None:
        """aclrtSynchronizeDevice returned at host time ``host_ns``; ``pending``: the
        streams that had unfinished tasks when it was called, the last of which ended
        at device time ``end_ns``. One pending stream: a needless-sync warning."""
        if not self.enabled or len(pending) != 1:
            return
        from .host_clock import HOST_COST_NS
        s = pending[0]
        last = self.last_task.get(s, TaskRef("a task", s, "?"))
        bubble = max(host_ns - end_ns, 0.0) + HOST_COST_NS["aclnn_launch"]
        self._report(Finding("needless-sync", last, TaskRef("aclrtSynchronizeDevice", -1, _site()), bubble_ns=bubble))


SANITIZER = Sanitizer()


def enable(on: bool = True) -> None:
    """Turn the sanitizer on (or off) from now on; findings so far are kept."""
    SANITIZER.enabled = bool(on)


def released(addr: int, nbytes: int, stream=None, what: str = "free") -> None:
    """For allocators above the runtime: device bytes [addr, addr + nbytes) were freed
    on the host (``stream`` None) or returned to stream ``stream``'s pool (a stream id,
    as a caching allocator in the manner of torch_npu's does without a device sync).
    Reports a use after free if a task still using them is not known finished
    (host) or not ordered before the stream's next task (pool). See :meth:`Sanitizer.free`."""
    if not SANITIZER.enabled:
        return
    sid = None
    if stream is not None:
        from .runtime import runtime   # (same layer; resolves handle 0 to the default stream's id)
        sid = runtime().streams.stream(getattr(stream, "handle", stream)).stream_id
    SANITIZER.free(addr, nbytes, what, sid)


def findings() -> list[Finding]:
    """The findings since aclInit (or since :func:`clear`)."""
    return list(SANITIZER.found)


def clear() -> None:
    """Forget the findings (the clocks are kept)."""
    SANITIZER.found.clear()
