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
launches given the same workspace). Findings are kept (:func:`findings`) and each is
also issued as a :class:`SanitizerWarning`.
"""
from __future__ import annotations

import os
import traceback
import warnings
from dataclasses import dataclass

_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: npu-sim's own package folders: a call site is the innermost frame outside them
_OURS = tuple(os.path.join(_ROOT, p) + os.sep for p in ("acl_runtime", "opsnn", "npu_sim", "frontend", "traces"))


class SanitizerWarning(UserWarning):
    """A finding of the stream sanitizer (see :class:`Finding`)."""


@dataclass(frozen=True)
class TaskRef:
    """One task as a finding names it: ``what`` (op or copy), ``stream`` id, ``site``
    (file:line of the host call that enqueued it, outside npu-sim's own packages)."""

    what: str
    stream: int
    site: str

    def __str__(self) -> str:
        return f"{self.what} on stream {self.stream} (enqueued at {self.site})"


@dataclass(frozen=True)
class Finding:
    """``kind``: "race" or "workspace"; ``first``/``second``: the two unordered tasks;
    ``lo``/``hi``: the overlapping device bytes [lo, hi)."""

    kind: str
    first: TaskRef
    second: TaskRef
    lo: int
    hi: int

    def __str__(self) -> str:
        what = "two unordered launches share workspace" if self.kind == "workspace" else "data race"
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
    """file:line of the innermost caller outside npu-sim's packages."""
    for fr in reversed(traceback.extract_stack()[:-2]):
        if not os.path.abspath(fr.filename).startswith(_OURS):
            return f"{os.path.basename(fr.filename)}:{fr.lineno}"
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
        self.pending_waits: dict[int, list[int]] = {}  # event never recorded -> streams waiting on its next record
        self.accesses: list[_Access] = []
        self.found: list[Finding] = []

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
        for t in self.pending_waits.pop(event, ()):
            self._join(self._clock(t), self.events[event])

    def wait(self, stream: int, event: int) -> None:
        if not self.enabled:
            return
        ev = self.events.get(event)
        if ev is None:
            self.pending_waits.setdefault(event, []).append(stream)
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
        for old in self.accesses:
            if old.stream == stream or v.get(old.stream, 0) >= old.clock:
                continue                                   # ordered before this task
            for a in new:
                if (a.write or old.write) and a.lo < old.hi and old.lo < a.hi:
                    kind = "workspace" if (a.workspace and old.workspace) else "race"
                    f = Finding(kind, old.task, ref, max(a.lo, old.lo), min(a.hi, old.hi))
                    self.found.append(f)
                    warnings.warn(str(f), SanitizerWarning, stacklevel=2)
                    break
        self.accesses.extend(new)


SANITIZER = Sanitizer()


def enable(on: bool = True) -> None:
    """Turn the sanitizer on (or off) from now on; findings so far are kept."""
    SANITIZER.enabled = bool(on)


def findings() -> list[Finding]:
    """The findings since aclInit (or since :func:`clear`)."""
    return list(SANITIZER.found)


def clear() -> None:
    """Forget the findings (the clocks are kept)."""
    SANITIZER.found.clear()
