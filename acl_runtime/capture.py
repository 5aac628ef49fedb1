"""Stream capture into a model run instance (CANN 8.x aclmdlRI*), and its replay.

Behaviour follows the CANN runtime API reference ("aclmdlRICaptureBegin",
"aclmdlRICaptureMode", "aclmdlRICaptureStatus", "aclmdlRICaptureGetInfo",
"aclmdlRICaptureThreadExchangeMode"; hiascend.com, CANN 8.5 / 9.0):

* between ``aclmdlRICaptureBegin(stream, mode)`` and ``aclmdlRICaptureEnd(stream)``
  the tasks issued on the stream are not run but kept in a model run instance
  (modelRI); ``aclmdlRIExecuteAsync`` / ``aclmdlRIExecute`` run them, which saves the
  host the per-task launch cost; ``aclmdlRIDestroy`` frees the instance;
* begin and end must name the same stream; other streams join the capture through
  events (an ``aclrtStreamWaitEvent`` on an event recorded inside the capture);
* the mode limits "unsafe" calls: aclrtMemset, aclrtMemcpy, aclrtMemcpy2d and async
  copies from host memory that is not page-locked. GLOBAL (0): no thread may call
  them; THREAD_LOCAL (1): not the capturing thread (this simulator has one host
  thread, so it behaves as GLOBAL); RELAXED (2): allowed (run eagerly, not captured).

Status codes are those of CANN's ``rt_error_codes.h``: 107027 STREAM_CAPTURED (begin on
a stream already capturing), 107029 STREAM_NOT_CAPTURED, 107030 CAPTURE_MODE_NOT_SUPPORT
(an unsafe call in a restricting mode), 107036 STREAM_CAPTURE_UNMATCHED (end on a stream
that joined but did not begin the capture), 507903 STREAM_CAPTURE_INVALIDATED (end of a
capture a failed call invalidated). Assumptions [A]: a wait on an event last recorded
outside the capture fails with 107024 CAPTURE_DEPENDENCY and invalidates the capture
(a captured graph cannot depend on work outside it); a destroyed or unknown modelRI
gives 100000; replay charges the host one ``aclnn_launch`` (one task submission), and
records one host span ``aclmdlRIExecuteAsync`` with a flow arrow to the first task.

Longer than 300 lines on purpose: the rules (manager), the stream/copy hooks and the
Pythonic :class:`Graph` over them are one feature and read best together.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from npu_sim.program import KernelLaunch

from . import constants as C
from .errors import AclError

ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0
ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1
ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2
MODE_NAMES = {0: "ACL_MODEL_RI_CAPTURE_MODE_GLOBAL", 1: "ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL",
              2: "ACL_MODEL_RI_CAPTURE_MODE_RELAXED"}
ACL_MODEL_RI_CAPTURE_STATUS_NONE = 0
ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE = 1
ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED = 2

ACL_ERROR_RT_CAPTURE_DEPENDENCY = 107024
ACL_ERROR_RT_STREAM_CAPTURED = 107027
ACL_ERROR_RT_STREAM_NOT_CAPTURED = 107029
ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT = 107030
ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED = 107036
ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED = 507903
for _k, _v in list(globals().items()):
    if _k.startswith("ACL_ERROR_RT_"):
        C.ERROR_NAMES.setdefault(_v, _k)


@dataclass
class Task:
    """One captured stream task. kind: "kernel" (prepared kernel ``k`` bound at replay to
    ``addrs``/``workspace``), "launch" (a ready ``KernelLaunch``), "memcpy", "record",
    "wait". ``stream``: the npu_sim stream it was issued on."""

    kind: str
    stream: object
    name: str
    payload: tuple


@dataclass
class ModelRI:
    """A model run instance: the captured tasks in issue order. ``handle``: the int the
    binding returns; ``origin``: the stream capture began on; ``streams``: every stream
    in the capture (ids); ``replays``: completed aclmdlRIExecuteAsync calls."""

    handle: int
    device: object
    origin: object
    mode: int
    tasks: list[Task] = field(default_factory=list)
    streams: set = field(default_factory=set)
    events: set = field(default_factory=set)
    status: int = ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE
    reason: str = ""
    ended: bool = False
    destroyed: bool = False
    replays: int = 0

    def describe(self) -> str:
        """Text of aclmdlRIDebugPrint: one line per task."""
        lines = [f"modelRI {self.handle}: {len(self.tasks)} tasks on streams {sorted(self.streams)}, "
                 f"mode {MODE_NAMES[self.mode]}, replays {self.replays}"]
        lines += [f"  {i:4d} stream {t.stream.stream_id} {t.kind:6s} {t.name}" for i, t in enumerate(self.tasks)]
        return "\n".join(lines)


class CaptureManager:
    """Capture state of one Runtime: ``capturing`` maps stream id -> ModelRI (shared with
    ``Streams.capturing``, which the hooks test first, so no capture costs one dict test)."""

    def __init__(self, rt) -> None:
        self.rt = rt
        self.capturing: dict[int, ModelRI] = rt.streams.capturing
        self.models: dict[int, ModelRI] = {}
        self.event_owner: dict[int, int] = {}   # event id -> modelRI handle of its latest record
        self.next_handle = 1

    def _live(self, sid: int) -> ModelRI | None:
        ri = self.capturing.get(sid)
        if ri is not None and ri.device is not self.rt.context.device:   # a finalize came between
            self.capturing.pop(sid, None)
            return None
        return ri

    # ---- begin / end / info ----------------------------------------------------------
    def begin(self, stream, mode: int) -> None:
        s = self.rt.streams.stream(stream)
        if mode not in MODE_NAMES or isinstance(mode, bool):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"aclmdlRICaptureBegin: unknown capture mode {mode!r}")
        if self._live(s.stream_id) is not None:
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURED,
                           f"aclmdlRICaptureBegin: stream {s.stream_id} is already capturing")
        self.rt.launcher.flush()   # work issued before begin runs as usual
        ri = ModelRI(self.next_handle, self.rt.context.device, s, mode, streams={s.stream_id})
        self.next_handle += 1
        self.models[ri.handle] = ri
        self.capturing[s.stream_id] = ri

    def end(self, stream) -> int:
        s = self.rt.streams.stream(stream)
        ri = self._live(s.stream_id)
        if ri is None:
            raise AclError(ACL_ERROR_RT_STREAM_NOT_CAPTURED, f"aclmdlRICaptureEnd: stream {s.stream_id} is not capturing")
        if ri.origin is not s:
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                           f"aclmdlRICaptureEnd: the capture was begun on stream {ri.origin.stream_id}, "
                           f"not on stream {s.stream_id}")
        self.rt.launcher.flush()   # routes the last deferred launches into the capture
        for sid in ri.streams:
            self.capturing.pop(sid, None)
        ri.ended = True
        if ri.status == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED:
            self.models.pop(ri.handle, None)
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                           f"aclmdlRICaptureEnd: the capture on stream {s.stream_id} was invalidated: {ri.reason}")
        return ri.handle

    def get_info(self, stream) -> tuple[int, int]:
        """(status, modelRI handle; 0 when the stream is not capturing)."""
        s = self.rt.streams.stream(stream)
        ri = self._live(s.stream_id)
        return (ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0) if ri is None else (ri.status, ri.handle)

    def model(self, handle) -> ModelRI:
        ri = self.models.get(handle) if isinstance(handle, int) and not isinstance(handle, bool) else None
        if ri is None or ri.destroyed:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"modelRI {handle!r} does not exist (destroyed or never captured)")
        if not ri.ended:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"modelRI {handle} is still capturing (call aclmdlRICaptureEnd)")
        return ri

    def destroy(self, handle) -> None:
        ri = self.model(handle)
        ri.destroyed = True
        del self.models[handle]
        if getattr(ri, "arena", 0):
            self.rt.free(ri.arena)

    def instantiate(self, handle, buffers: dict[int, int], alignment: int = 512):
        """Plan ``buffers`` ({device address: bytes}, e.g. intermediates and workspaces
        that only captured aclnn kernels touch) in one arena by their lifetimes over the
        captured tasks, allocate it, and rebind the kernels to it; replays then use the
        arena (the old buffers may be freed). Happens-before: stream order plus each
        wait after the latest captured record of its event. Two buffers share memory only
        if every use of one happens before every use of the other, so tasks on streams
        with no event path between them never share. Returns the
        ``workspace_planner.BufferPlan``. Raises AclError 100000 for a bad handle or a
        second instantiate."""
        from .workspace_planner import BlockIndex, plan_ordered
        ri = self.model(handle)
        if getattr(ri, "arena", 0):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"modelRI {handle} is already instantiated")
        blocks = BlockIndex(buffers)
        bases, owner = blocks.bases, blocks.owner
        index = {b: k for k, b in enumerate(bases)}
        anc: list[int] = []
        last_on: dict[int, int] = {}
        last_record: dict[int, int] = {}
        uses = [0] * len(bases)
        for j, task in enumerate(ri.tasks):
            a = 0
            sid = task.stream.stream_id
            preds = [last_on[sid]] if sid in last_on else []
            if task.kind == "wait" and task.payload[0].event_id in last_record:
                preds.append(last_record[task.payload[0].event_id])
            for p in preds:
                a |= anc[p] | (1 << p)
            anc.append(a)
            last_on[sid] = j
            if task.kind == "record":
                last_record[task.payload[0].event_id] = j
            elif task.kind == "kernel":
                _, addrs, ws = task.payload[:3]
                for addr in (*addrs, ws):
                    b = owner(addr) if addr else None
                    if b is not None:
                        uses[index[b]] |= 1 << j
        before = []
        for j in range(len(bases)):
            common = -1
            x = uses[j]
            while x:
                low = x & -x
                common &= anc[low.bit_length() - 1]
                x ^= low
            before.append(sum(1 << i for i in range(len(bases))
                              if i != j and uses[j] and uses[i] and uses[i] & ~common == 0))
        plan = plan_ordered(bases, [buffers[b] for b in bases], before, alignment)
        ri.arena = self.rt.malloc(plan.arena_bytes) if plan.arena_bytes else 0

        def real(addr: int) -> int:
            b = owner(addr) if addr else None
            return addr if b is None else ri.arena + plan.offsets[b] + (addr - b)
        for task in ri.tasks:
            if task.kind == "kernel":
                k, addrs, ws, gm = task.payload   # gm: the launch's byte ranges (L2 model), or None
                if gm is not None:
                    gm = ([(real(a), n) for a, n in gm[0]], [(real(a), n) for a, n in gm[1]],
                          (real(gm[2][0]), gm[2][1]) if gm[2] else None)
                task.payload = (k, [real(a) for a in addrs], real(ws), gm)
        ri.plan = plan
        return plan

    # ---- hooks (called by streams / launch_queue / memory while a capture is active) --
    def _fail(self, ri: ModelRI, code: int, msg: str):
        ri.status = ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
        ri.reason = ri.reason or msg
        raise AclError(code, msg)

    def unsafe_call(self, call: str) -> bool:
        """An unsafe call (aclrtMemcpy, aclrtMemset, async copy from unpinned host memory)
        while some capture is active. Returns False when every active capture is
        RELAXED (the call runs eagerly); else invalidates them and raises 107030."""
        active = {id(ri): ri for sid in list(self.capturing) if (ri := self._live(sid)) is not None}
        strict = [ri for ri in active.values() if ri.mode != ACL_MODEL_RI_CAPTURE_MODE_RELAXED]
        if not strict:
            return False
        for ri in strict[1:]:
            ri.status, ri.reason = ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, f"{call} during capture"
        ri = strict[0]
        self._fail(ri, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
                   f"{call} is not allowed while stream {ri.origin.stream_id} is capturing in mode "
                   f"{MODE_NAMES[ri.mode]}; the capture is invalidated (use ACL_MODEL_RI_CAPTURE_MODE_RELAXED or "
                   f"an async call)")
        return True

    def task(self, s, kind: str, name: str, payload: tuple) -> bool:
        """Record a task issued on stream ``s`` if it is capturing (returns True), else
        return False and let the caller run it."""
        ri = self._live(s.stream_id)
        if ri is None:
            return False
        if ri.status == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE:
            ri.tasks.append(Task(kind, s, name, payload))
        return True

    def record(self, s, e) -> bool:
        ri = self._live(s.stream_id)
        if ri is None:
            self.event_owner.pop(e.event_id, None)
            return False
        ri.events.add(e.event_id)
        self.event_owner[e.event_id] = ri.handle
        return self.task(s, "record", f"aclrtRecordEvent {e.event_id}", (e,))

    def wait(self, s, e) -> bool:
        """aclrtStreamWaitEvent(s, e) during a capture: a capturing stream waiting on an
        event recorded outside fails (107024); a free stream waiting on an event recorded
        inside a capture joins it."""
        ri = self._live(s.stream_id)
        h = self.event_owner.get(e.event_id)
        src = [self.models[h]] if h in self.models and not self.models[h].ended else []
        if ri is None and not src:
            return False
        if ri is None:
            ri = src[0]
            ri.streams.add(s.stream_id)
            self.capturing[s.stream_id] = ri
        elif not src or src[0] is not ri:
            self._fail(ri, ACL_ERROR_RT_CAPTURE_DEPENDENCY,
                       f"aclrtStreamWaitEvent: capturing stream {s.stream_id} waits on event {e.event_id}, last "
                       "recorded outside the capture; the capture is invalidated")
        return self.task(s, "wait", f"aclrtStreamWaitEvent {e.event_id}", (e,))

    # ---- replay -----------------------------------------------------------------------
    def execute_async(self, handle, stream) -> None:
        """aclmdlRIExecuteAsync: submit every captured task; the origin stream's tasks go
        on ``stream``, the other streams' on themselves. One host launch in all."""
        ri = self.model(handle)
        rt = self.rt
        s = rt.streams.stream(stream)
        if self._live(s.stream_id) is not None:
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURED, f"aclmdlRIExecuteAsync on capturing stream {s.stream_id}")
        rt.launcher.flush()
        dev = rt.context.device
        if dev is not ri.device:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"modelRI {handle} belongs to a device that was reset")
        t, fid = rt.profiler.host_span("aclnn_launch", "aclmdlRIExecuteAsync",
                                       {"modelRI": ri.handle, "tasks": len(ri.tasks)}, flow=True)
        backed = dev.backed
        for task in ri.tasks:
            ts = s if task.stream is ri.origin else task.stream
            p = task.payload
            if task.kind == "kernel":
                k, addrs, ws, gm = p
                dev.submit_kernel(ts, KernelLaunch(k.spec, k.make_body(addrs, ws) if backed else None, gm), t, fid)
            elif task.kind == "launch":
                dev.submit_kernel(ts, p[0], t, fid)
            elif task.kind == "memcpy":
                count, tag, apply = p
                dev.submit_memcpy(ts, count, tag, apply, t, fid)
            elif task.kind == "record":
                dev.submit_record(ts, p[0], t)
            else:
                dev.submit_wait(ts, p[0], t)
            fid = None
        ri.replays += 1

    def execute(self, handle, stream=None) -> None:
        """aclmdlRIExecute: execute_async on ``stream`` (default stream) and wait for it."""
        self.execute_async(handle, stream)
        self.rt.streams.synchronize_stream(stream)


def manager(rt) -> CaptureManager:
    """The CaptureManager of Runtime ``rt`` (created on first use)."""
    m = rt.streams.__dict__.get("capture_manager")
    if m is None:
        m = rt.streams.capture_manager = CaptureManager(rt)
    return m


def copy_hook(rt, s, sync: bool, kind: int, src: int) -> bool:
    """Called by ``Memory.memcpy`` while some capture is active. A synchronous copy is
    unsafe (raises 107030 unless every capture is RELAXED; then it runs eagerly: False).
    An async copy on a capturing stream is captured (True); from host memory that is not
    page-locked (not from aclrtMallocHost) it is unsafe first."""
    m = manager(rt)
    if sync:
        m.unsafe_call("aclrtMemcpy")
        return False
    if m._live(s.stream_id) is None:
        return False
    if kind == C.ACL_MEMCPY_HOST_TO_DEVICE and not any(
            p <= src < p + a.nbytes for p, a in rt.memory._host_keep.items()):
        m.unsafe_call("aclrtMemcpyAsync from host memory not allocated by aclrtMallocHost")
    return True


class Graph:
    """Pythonic capture: ``with session.capture(stream) as graph: ...`` records the
    launches, async copies and event calls issued inside the block (aclmdlRICaptureBegin
    on enter, aclmdlRICaptureEnd on exit), then ``graph.replay(inputs)`` runs them all
    for one host launch (aclmdlRIExecuteAsync). ``inputs``: {DeviceArray: numpy array}
    copied in (blocking aclrtMemcpy, outside the capture) before the replay, so a replay
    takes new data without recapture. Operator workspaces in use when the capture ends
    stay allocated until :meth:`destroy` (the graph's tasks keep their addresses).
    Errors raise the Session's typed exceptions (status in ``.code``)."""

    def __init__(self, session, stream, mode: int = ACL_MODEL_RI_CAPTURE_MODE_GLOBAL):
        self.session = session
        self.stream = stream
        self.mode = mode
        self.handle = 0
        self._keep: list = []

    def _m(self) -> CaptureManager:
        from .runtime import runtime
        return manager(runtime())

    def __enter__(self) -> "Graph":
        from .errors import raising
        with raising():
            self._m().begin(self.stream.handle, self.mode)
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        from .errors import raising
        s = self.session
        if exc_type is not None:   # end the capture, keep the original exception
            try:
                self._m().end(self.stream.handle)
            except AclError:
                pass
            return
        with raising():
            self.handle = self._m().end(self.stream.handle)
        self._keep = list(s._workspaces.values()) + list(s._retired)
        s._retired.clear()

    @property
    def model(self) -> ModelRI:
        from .errors import raising
        with raising():
            return self._m().model(self.handle)

    @property
    def num_tasks(self) -> int:
        """Captured tasks (kernels, copies, event records and waits)."""
        return len(self.model.tasks)

    def replay(self, inputs: dict | None = None, *, stream=None) -> "Graph":
        """Copy ``inputs`` in, then aclmdlRIExecuteAsync on ``stream`` (default: the
        capture stream). Asynchronous: synchronize (or read an output) to see results."""
        from .errors import raising
        for dst, src in (inputs or {}).items():
            dst.copy_from(src)
        with raising():
            self._m().execute_async(self.handle, (stream or self.stream).handle)
        return self

    def describe(self) -> str:
        """aclmdlRIDebugPrint's text."""
        return self.model.describe()

    def destroy(self) -> None:
        """aclmdlRIDestroy; frees the workspaces the graph kept."""
        from .errors import raising
        with raising():
            self._m().destroy(self.handle)
        self.session._retired.extend(w for w in self._keep if w not in self.session._workspaces.values())
        self._keep = []
