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
Captured graphs hold their streams until aclmdlRIDestroy (the aclmdlRICaptureBegin
reference warns that captures use up stream resources): a begin when the device's
streams plus those held reach the budget fails with 207008 (``Streams.check_stream_budget``).

With the stream sanitizer on (acl_runtime/sanitizer.py), each replay hands it its tasks
as they are submitted: kernels and copies with their device ranges, records and waits
on the streams they run on, so a race between a replay and eager work is reported.

Task groups (CANN 8.x / 9.0 "aclmdlRICaptureTaskGrpBegin", "...TaskGrpEnd",
"...TaskUpdateBegin", "...TaskUpdateEnd", hiascend.com runtime API reference,
aclcppdevg_03_1823..1826): ``TaskGrpBegin(stream)`` / ``TaskGrpEnd(stream) -> handle``
on a capturing stream mark the single-operator tasks between them as a group (only
operator launches are allowed inside: another task type fails with 507009
TASK_TYPE_NOT_SUPPORT); ``TaskUpdateBegin(stream, handle)`` on a stream that is not
capturing, the same number and types of tasks, then ``TaskUpdateEnd(stream)`` replace
the group's tasks in the instance (new tensor addresses, a new executor's scalars),
so the next replay uses them without a recapture. The update tasks are not run.
Assumptions [A]: begin of a second group while one is open, end without a group or
on another stream, update end without update begin, and an update whose count or
types differ from the group's give 107000 PARAM_INVALID (the group is unchanged);
a group of a destroyed instance gives 100000; a capture ended with a group open is
invalidated (507903); the update takes effect for replays issued after update end.

Arena counter: with ``set_arena_use`` (``acl.mdl.ri_set_arena_use``, a simulator
extension) or :meth:`CaptureManager.instantiate`, each replay adds samples to the
counter track :data:`ARENA_COUNTER` ("C" events): bytes of the arena in use at each
captured kernel (instantiate: the buffers between their first and last use in capture
order), sampled at the replay's launch and as each kernel ends.

Longer than 300 lines on purpose: the rules (manager), the stream/copy hooks and the
Pythonic :class:`Graph` over them are one feature and read best together.
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from npu_sim.program import KernelLaunch

from . import constants as C
from .errors import AclError
from .sanitizer import SANITIZER

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
ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT = 507009
ACL_ERROR_RT_PARAM_INVALID = 107000
#: counter track (process, series) of arena bytes in use during replays
ARENA_COUNTER = ("modelRI arena", "in use (bytes)")
_KERNEL_KINDS = ("kernel", "launch")
for _k, _v in list(globals().items()):
    if _k.startswith("ACL_ERROR_RT_"):
        C.ERROR_NAMES.setdefault(_v, _k)


@dataclass
class Task:
    """One captured stream task. kind: "kernel" (prepared kernel ``k`` bound at replay to
    ``addrs``/``workspace``), "launch" (a ready ``KernelLaunch``), "memcpy" / "memset"
    (payload ``(count, tag, apply, reads, writes)``, the ranges as (address, nbytes)
    pairs), "record", "wait". ``stream``: the npu_sim stream it was issued on."""

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
    group_open: tuple | None = None      #: (stream, first task index) of an open task group
    update_of: "TaskGroup | None" = None  #: set on the recorder of an aclmdlRICaptureTaskUpdate
    arena_use: list | None = None        #: bytes in use per captured kernel, then after the last

    def describe(self) -> str:
        """Text of aclmdlRIDebugPrint: one line per task."""
        lines = [f"modelRI {self.handle}: {len(self.tasks)} tasks on streams {sorted(self.streams)}, "
                 f"mode {MODE_NAMES[self.mode]}, replays {self.replays}"]
        lines += [f"  {i:4d} stream {t.stream.stream_id} {t.kind:6s} {t.name}" for i, t in enumerate(self.tasks)]
        return "\n".join(lines)


@dataclass
class TaskGroup:
    """A task group (aclrtTaskGrp): ``indices`` of its tasks in ``ModelRI.tasks`` (all on
    the stream it was begun on); ``updates``: completed task updates."""

    handle: int
    model: int
    indices: list[int]
    updates: int = 0


class CaptureManager:
    """Capture state of one Runtime: ``capturing`` maps stream id -> ModelRI (shared with
    ``Streams.capturing``, which the hooks test first, so no capture costs one dict test)."""

    def __init__(self, rt) -> None:
        self.rt = rt
        self.device = rt.context.device
        self.capturing: dict[int, ModelRI] = rt.streams.capturing
        self.models: dict[int, ModelRI] = {}
        self.event_owner: dict[int, int] = {}   # event id -> modelRI handle of its latest record
        self.next_handle = 1
        self.groups: dict[int, TaskGroup] = {}
        self.next_group = 1

    def _live(self, sid: int) -> ModelRI | None:
        ri = self.capturing.get(sid)
        if ri is not None and ri.device is not self.rt.context.device:   # a finalize came between
            self.capturing.pop(sid, None)
            return None
        return ri

    def _capture(self, sid: int) -> ModelRI | None:
        """The capture stream ``sid`` is in (None when free or only updating a group)."""
        ri = self._live(sid)
        return None if ri is None or ri.update_of is not None else ri

    # ---- begin / end / info ----------------------------------------------------------
    def begin(self, stream, mode: int) -> None:
        s = self.rt.streams.stream(stream)
        if mode not in MODE_NAMES or isinstance(mode, bool):
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"aclmdlRICaptureBegin: unknown capture mode {mode!r}")
        if self._live(s.stream_id) is not None:
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURED,
                           f"aclmdlRICaptureBegin: stream {s.stream_id} is already capturing")
        self.rt.streams.check_stream_budget("aclmdlRICaptureBegin")   # 207008: the graph would hold one more
        self.rt.launcher.flush()   # work issued before begin runs as usual
        ri = ModelRI(self.next_handle, self.rt.context.device, s, mode, streams={s.stream_id})
        self.next_handle += 1
        self.models[ri.handle] = ri
        self.capturing[s.stream_id] = ri

    def end(self, stream) -> int:
        s = self.rt.streams.stream(stream)
        ri = self._capture(s.stream_id)
        if ri is None:
            raise AclError(ACL_ERROR_RT_STREAM_NOT_CAPTURED, f"aclmdlRICaptureEnd: stream {s.stream_id} is not capturing")
        if ri.origin is not s:
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED,
                           f"aclmdlRICaptureEnd: the capture was begun on stream {ri.origin.stream_id}, "
                           f"not on stream {s.stream_id}")
        self.rt.launcher.flush()   # routes the last deferred launches into the capture
        if ri.group_open is not None and ri.status == ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE:
            ri.status = ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED
            ri.reason = (f"the task group begun on stream {ri.group_open[0].stream_id} was never ended "
                         "(aclmdlRICaptureTaskGrpEnd)")
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
        ri = self._capture(s.stream_id)
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
        for h in [h for h, g in self.groups.items() if g.model == handle]:
            del self.groups[h]

    # ---- task groups ------------------------------------------------------------------
    def group_begin(self, stream) -> None:
        """aclmdlRICaptureTaskGrpBegin: 107029 unless ``stream`` is capturing; 107000 if a
        group is already open in the capture."""
        s = self.rt.streams.stream(stream)
        ri = self._capture(s.stream_id)
        if ri is None:
            raise AclError(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                           f"aclmdlRICaptureTaskGrpBegin: stream {s.stream_id} is not capturing")
        if ri.group_open is not None:
            raise AclError(ACL_ERROR_RT_PARAM_INVALID, f"aclmdlRICaptureTaskGrpBegin: a task group is already open on "
                           f"stream {ri.group_open[0].stream_id} (groups do not nest)")
        self.rt.launcher.flush()   # launches issued before the begin are outside the group
        ri.group_open = (s, len(ri.tasks))

    def group_end(self, stream) -> int:
        """aclmdlRICaptureTaskGrpEnd -> task group handle. 107029 unless ``stream`` is
        capturing; 107000 without an open group or on another stream than the begin."""
        s = self.rt.streams.stream(stream)
        ri = self._capture(s.stream_id)
        if ri is None:
            raise AclError(ACL_ERROR_RT_STREAM_NOT_CAPTURED,
                           f"aclmdlRICaptureTaskGrpEnd: stream {s.stream_id} is not capturing")
        if ri.group_open is None or ri.group_open[0] is not s:
            where = "no task group is open" if ri.group_open is None else \
                f"the task group was begun on stream {ri.group_open[0].stream_id}"
            raise AclError(ACL_ERROR_RT_PARAM_INVALID, f"aclmdlRICaptureTaskGrpEnd on stream {s.stream_id}: {where}")
        self.rt.launcher.flush()
        start = ri.group_open[1]
        ri.group_open = None
        g = TaskGroup(self.next_group, ri.handle, [j for j in range(start, len(ri.tasks)) if ri.tasks[j].stream is s])
        self.next_group += 1
        self.groups[g.handle] = g
        return g.handle

    def update_begin(self, stream, group) -> None:
        """aclmdlRICaptureTaskUpdateBegin: tasks issued on ``stream`` until update end
        are recorded as the group's new tasks, not run. 107027 if the stream is
        capturing, 107000 if it is already updating, 100000 for an unknown group or one
        whose instance was destroyed or is still capturing."""
        s = self.rt.streams.stream(stream)
        cur = self._live(s.stream_id)
        if cur is not None:
            if cur.update_of is not None:
                raise AclError(ACL_ERROR_RT_PARAM_INVALID,
                               f"aclmdlRICaptureTaskUpdateBegin: stream {s.stream_id} is already updating a task group")
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURED, f"aclmdlRICaptureTaskUpdateBegin: stream {s.stream_id} is "
                           "capturing; a task update needs a stream that is not capturing")
        g = self._group(group)
        self.rt.launcher.flush()
        rec = ModelRI(0, self.rt.context.device, s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, streams={s.stream_id})
        rec.update_of = g
        self.capturing[s.stream_id] = rec

    def update_end(self, stream) -> None:
        """aclmdlRICaptureTaskUpdateEnd: the recorded tasks replace the group's. 107000
        without an update begin on ``stream`` or when their count or types differ from
        the group's (the group is unchanged); 100000 if the instance was destroyed in
        between; 507903 if an unsafe call invalidated the update."""
        s = self.rt.streams.stream(stream)
        rec = self._live(s.stream_id)
        if rec is None or rec.update_of is None:
            raise AclError(ACL_ERROR_RT_PARAM_INVALID,
                           f"aclmdlRICaptureTaskUpdateEnd: stream {s.stream_id} has no task update begun")
        self.rt.launcher.flush()
        self.capturing.pop(s.stream_id, None)
        if rec.status == ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED:
            raise AclError(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED,
                           f"aclmdlRICaptureTaskUpdateEnd: the update was invalidated: {rec.reason}")
        g = self._group(rec.update_of.handle)
        ri = self.models[g.model]
        old = [ri.tasks[j] for j in g.indices]
        if [t.kind for t in old] != [t.kind for t in rec.tasks]:
            raise AclError(ACL_ERROR_RT_PARAM_INVALID, f"aclmdlRICaptureTaskUpdateEnd: the update issued "
                           f"{len(rec.tasks)} tasks {[t.name for t in rec.tasks]}, task group {g.handle} has "
                           f"{len(old)} {[t.name for t in old]} (count and types must match)")
        for j, t in zip(g.indices, rec.tasks):
            ri.tasks[j] = Task(t.kind, ri.tasks[j].stream, t.name, t.payload)
        g.updates += 1

    def _group(self, handle) -> TaskGroup:
        g = self.groups.get(handle) if isinstance(handle, int) and not isinstance(handle, bool) else None
        if g is None:
            raise AclError(C.ACL_ERROR_INVALID_PARAM, f"task group {handle!r} does not exist (never ended, or its "
                           "modelRI was destroyed)")
        self.model(g.model)
        return g

    def set_arena_use(self, handle, per_kernel: list[int]) -> None:
        """Bytes of the arena in use while each captured kernel runs (one entry per
        kernel task, in capture order) and after the last (one more entry): each replay
        then samples them on the :data:`ARENA_COUNTER` track. 100000 for a bad handle or
        a list of the wrong length."""
        ri = self.model(handle)
        n = sum(t.kind in _KERNEL_KINDS for t in ri.tasks)
        if len(per_kernel) != n + 1:
            raise AclError(C.ACL_ERROR_INVALID_PARAM,
                           f"modelRI {handle} has {n} kernel tasks: give {n + 1} byte counts, not {len(per_kernel)}")
        ri.arena_use = [int(b) for b in per_kernel]

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
        kernel_at = [j for j, t in enumerate(ri.tasks) if t.kind in _KERNEL_KINDS]
        live = [((u & -u).bit_length() - 1, u.bit_length() - 1, buffers[b]) for b, u in zip(bases, uses) if u]
        ri.arena_use = [sum(n for lo, hi, n in live if lo <= j <= hi) for j in kernel_at] + [0]
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
            if kind not in _KERNEL_KINDS and (ri.update_of is not None
                                              or (ri.group_open is not None and ri.group_open[0] is s)):
                where = "a task update" if ri.update_of is not None else "a task group"
                raise AclError(ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT, f"{name} on stream {s.stream_id} inside {where}: "
                               "only single-operator launches may be issued there")
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
        use = ri.arena_use
        sample = None
        if use is not None:
            counter, env = rt.profiler.host.counter, dev.env
            counter(ARENA_COUNTER[0], ARENA_COUNTER[1], t, use[0])

            def sample(_ev, v: int) -> None:
                counter(ARENA_COUNTER[0], ARENA_COUNTER[1], env.now, v)
        nk = 0
        san = SANITIZER.enabled
        for task in ri.tasks:
            ts = s if task.stream is ri.origin else task.stream
            p = task.payload
            if san:
                _sanitize(ri, task, ts.stream_id)
            proc = None
            if task.kind == "kernel":
                k, addrs, ws, gm = p
                proc = dev.submit_kernel(ts, KernelLaunch(k.spec, k.make_body(addrs, ws) if backed else None, gm),
                                         t, fid)
            elif task.kind == "launch":
                proc = dev.submit_kernel(ts, p[0], t, fid)
            elif task.kind in ("memcpy", "memset"):
                count, tag, apply, reads, writes = p
                dev.submit_memcpy(ts, count, tag, apply, t, fid, writes[0] if writes else None)
            elif task.kind == "record":
                dev.submit_record(ts, p[0], t)
            else:
                dev.submit_wait(ts, p[0], t)
            if proc is not None:
                nk += 1
                if sample is not None:
                    proc.callbacks.append(lambda ev, v=use[nk]: sample(ev, v))
            fid = None
        ri.replays += 1

    def execute(self, handle, stream=None) -> None:
        """aclmdlRIExecute: execute_async on ``stream`` (default stream) and wait for it."""
        self.execute_async(handle, stream)
        self.rt.streams.synchronize_stream(stream)


def _sanitize(ri: ModelRI, task: Task, sid: int) -> None:
    """Hand one replayed task, run on stream ``sid``, to the stream sanitizer: a kernel
    with its GM ranges (``KernelLaunch.gm`` / the prepared launch's, when known), a copy
    or memset with its ranges, a record or a wait."""
    what = f"{task.name} (replay of modelRI {ri.handle})"
    k, p = task.kind, task.payload
    if k == "record":
        SANITIZER.record(p[0].event_id, sid)
    elif k == "wait":
        SANITIZER.wait(sid, p[0].event_id)
    elif k in ("memcpy", "memset"):
        SANITIZER.task(sid, what, reads=p[3], writes=p[4])
    else:
        gm = p[3] if k == "kernel" else p[0].gm
        if gm is None:
            SANITIZER.task(sid, what)
        else:
            SANITIZER.task(sid, what, gm[0], gm[1], gm[2])


def manager(rt) -> CaptureManager:
    """The CaptureManager of Runtime ``rt``: created on first use, and anew for each
    device (after aclFinalize / a reset, old instances cannot run; handles restart at
    1, so a run's trace does not depend on the runs before it in the process)."""
    m = rt.streams.__dict__.get("capture_manager")
    dev = rt.context.device
    if m is None or (m.device is not dev and dev is not None):
        m = rt.streams.capture_manager = CaptureManager(rt)
    return m


def memset_hook(rt, s, sync: bool) -> bool:
    """Called by ``Memory.memset`` (device memory) while some capture is active. The
    synchronous aclrtMemset is unsafe (CANN "aclmdlRICaptureMode": GLOBAL and
    THREAD_LOCAL forbid it; raises 107030 and invalidates the capture unless every
    capture is RELAXED, when it runs eagerly: False). aclrtMemsetAsync on a capturing
    stream is captured (True); on another stream it runs (False)."""
    m = manager(rt)
    if sync:
        m.unsafe_call("aclrtMemset")
        return False
    return m._live(s.stream_id) is not None


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


class _GroupRef:
    """The aclrtTaskGrp handle of a ``Graph.task_group()`` block (set when it ends)."""

    handle = 0


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

    @contextmanager
    def task_group(self):
        """``with graph.task_group() as grp: <launches>`` inside the capture block:
        aclmdlRICaptureTaskGrpBegin/End on the capture stream; ``grp.handle`` is then the
        aclrtTaskGrp for :meth:`update`. Raises the Session's typed errors."""
        from .errors import raising
        grp = _GroupRef()
        with raising():
            self._m().group_begin(self.stream.handle)
        yield grp
        with raising():
            grp.handle = self._m().group_end(self.stream.handle)

    @contextmanager
    def update(self, grp, stream):
        """``with graph.update(grp, stream): <the group's launches, new tensors or
        scalars>`` after the capture: aclmdlRICaptureTaskUpdateBegin/End on ``stream``
        (a Session stream that is not capturing); the launches are recorded, not run,
        and the next :meth:`replay` uses them."""
        from .errors import raising
        with raising():
            self._m().update_begin(stream.handle, grp.handle)
        try:
            yield grp
        except BaseException:
            try:
                self._m().update_end(stream.handle)
            except AclError:
                pass
            raise
        with raising():
            self._m().update_end(stream.handle)

    def destroy(self) -> None:
        """aclmdlRIDestroy; frees the workspaces the graph kept."""
        from .errors import raising
        with raising():
            self._m().destroy(self.handle)
        self.session._retired.extend(w for w in self._keep if w not in self.session._workspaces.values())
        self._keep = []
