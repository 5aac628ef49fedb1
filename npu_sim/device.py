"""A simulated device: SimPy environment, cores, memory system, streams and events.

The device clock is ``env.now`` in ns. It advances only when the host asks
(:meth:`Device.run_until`), so the host can enqueue many tasks ahead of the device,
as on hardware. A task never starts before the host time at which it was enqueued.

Stream tasks (msprof's names): AI_CORE / AI_VECTOR_CORE kernels, MEMCPY,
EVENT_RECORD, STREAM_WAIT_EVENT. Each stream runs its tasks in order; streams run
concurrently and share cores, HBM and the host link.

(Over 300 lines on purpose: the task submission, the block dispatch and the
per-kernel records are one SimPy process family sharing the device's state; the cost
formulas and the pipes live in npu_sim/hardware/.)
"""
from __future__ import annotations

from heapq import heappush
from dataclasses import asdict, dataclass, field, is_dataclass
from typing import Any, Callable

import simpy
from simpy.events import NORMAL

from .blas_threads import BLAS_THREADS_ENV, limit_blas_threads  # noqa: F401  (BLAS_THREADS_ENV re-exported)
from .chips import ChipConfig
from .device_memory import DeviceMemory
from .env_flags import env_flag
from .hardware.bandwidth import BandwidthServer, l2_read_bytes_per_ns, sustained_hbm_bytes_per_ns
from .hardware.cores import CoreScheduler, buffer_capacity, make_cores
from .hardware.l2 import GmL2, L2Cache
from .metrics import kernel_metrics
from .records import KernelRecords
from . import memcpy_fast, stream_runner
from .hardware.inline import run_kernel_inline
from .hardware.kernel_plan import KernelPlan
from .hardware.pipeline import AIV_PIPES, CompiledProgram, KernelStats, compile_program, run_block
from .program import CoreType, KernelLaunch, KernelSpec, MixBlockProgram, Pipe
from .trace import TraceRecorder


#: msprof stream task type of each kernel kind
TASK_TYPES = {CoreType.AIC: "AI_CORE", CoreType.AIV: "AI_VECTOR_CORE", CoreType.MIX: "MIX_AIC"}


def spec_trace_args(spec: KernelSpec) -> dict[str, Any]:
    """The trace arguments a kernel spec contributes to its stream task span and kernel
    record, built from its typed fields: ``spec.args`` plus "flops" (``spec.flops``),
    "bytes" (``spec.gm_bytes``), "tiling" (``spec.tiling_data``, a dataclass as a
    dict) and "strategy", each only when set (so an op that states none of them gets
    none of these keys). Keys already in ``args`` keep their place."""
    out = dict(spec.args)
    if spec.flops:
        out["flops"] = spec.flops
    if spec.gm_bytes:
        out["bytes"] = spec.gm_bytes
    if spec.tiling_data is not None:
        td = spec.tiling_data
        out["tiling"] = asdict(td) if is_dataclass(td) and not isinstance(td, type) else td
    if spec.strategy:
        out["strategy"] = spec.strategy
    return out


#: environment variable: "0"/"off" turns the uncontended fast path off (Device.fast_path; default on;
#: npu_sim/env_flags.py reads it)
FAST_PATH_ENV = "NPU_SIM_FAST_PATH"
#: environment variable: "0"/"off" gives every stream task its own SimPy process, the reference design
#: (Device.stream_runner; default on: one runner process per stream, npu_sim/stream_runner.py)
STREAM_RUNNER_ENV = "NPU_SIM_STREAM_RUNNER"

_INF = float("inf")
#: id(Pipe member) -> its name (``Pipe.value``, an Enum property lookup each time)
_PIPE_NAMES = {id(p): p.value for p in Pipe}


def _task(env, prev, enqueue_ns: float, gen, stream, name: str):
    """SimPy process of one stream task: wait for the previous task ``prev`` (a
    process or None) and for the host time ``enqueue_ns``, then run ``gen``; a failure
    becomes an error of the stream, never a crash. (A module function, not a
    closure: a queued task holds a generator and its frame, no cells.)"""
    if prev is not None and not prev.processed:
        yield prev
    if enqueue_ns > env.now:
        yield env.timeout(enqueue_ns - env.now)
    try:
        yield from gen
    except Exception as exc:  # a task failure is a stream error, never a crash
        stream.errors.append(f"{name}: {exc}")


def _due_event(env, at: float) -> simpy.Event:
    """A triggered SimPy event queued at time ``at`` (ns), NORMAL priority, numbered
    next: what ``env.timeout(delay)`` queues when ``at`` is ``env.now + delay`` (the
    same float), without the Timeout object's own bookkeeping."""
    ev = simpy.Event(env)
    ev._ok = True
    ev._value = None
    heappush(env._queue, (at, NORMAL, next(env._eid), ev))
    return ev


class _Queued(simpy.Process):
    """A stream task queued behind an unfinished one (:meth:`Device._chain`): a SimPy
    process that has no Initialize event and no generator until its predecessor
    ``prev`` ends. Its start is a callback on ``prev``, registered at submission:
    exactly where the plain process would register its resume when its Initialize
    event ran and found ``prev`` unfinished (the only other callbacks on a task are
    added at submission, before the next task is chained), so it resumes in the same
    step and order, with the same clock. What it saves per queued task: one SimPy
    step (the Initialize event) and, until it starts, the generators and frames that
    the garbage collector would otherwise traverse (issue 17: a full collection over
    2000 queued kernels took 70-100 ms)."""

    def __init__(self, env, prev, make, args, enqueue_ns, stream, name):
        self.env = env
        self.callbacks = []
        self._generator = None
        self._start_with = (make, args, enqueue_ns, stream, name)
        self._target = prev
        prev.callbacks.append(self._start)

    def _start(self, event) -> None:
        make, args, enqueue_ns, stream, name = self._start_with
        self._start_with = None
        self._generator = _task(self.env, None, enqueue_ns, make(*args), stream, name)
        self._resume(event)   # ``event`` (prev's end) carries None: the fresh generator's first send

    @property
    def name(self) -> str:
        return "_task"


class KernelConfigError(Exception):
    """A kernel the chip cannot run: a buffer over capacity, no blocks, or no cores."""


@dataclass
class Stream:
    """A hardware stream: an in-order task queue. ``last`` is the SimPy process of
    the newest task (the next task waits on it). ``priority``: 0 (highest) .. 7
    (lowest), as aclrtCreateStreamWithConfig takes it; the core scheduler serves the
    waiting blocks of a higher priority first (hardware/cores.py)."""

    stream_id: int
    last: simpy.Event | None = None
    errors: list[str] = field(default_factory=list)
    task_count: int = 0
    priority: int = 0
    runner: Any = None   # its stream_runner.TaskQueue, with Device.stream_runner on


@dataclass
class HwEvent:
    """A hardware event. Each record creates a SimPy event that fires when the record
    task runs; ``pending_waits`` are waits enqueued before any record (they bind to
    the next record). ``timestamp_ns`` is the time of the latest completed record."""

    event_id: int
    records: list[simpy.Event] = field(default_factory=list)
    pending_waits: list[simpy.Event] = field(default_factory=list)
    timestamp_ns: float | None = None


class Device:
    """One simulated NPU.

    Args:
        chip: the chip config.
        device_id: trace label.
        backed: False for timing-only runs (device memory holds no bytes and
            kernel bodies are skipped).
        recorder: where the device's spans go (its stream, core and pipe tracks;
            the host track is the runtime's); a new enabled one by default.
    """

    def __init__(self, chip: ChipConfig, device_id: int = 0, backed: bool = True,
                 recorder: TraceRecorder | None = None):
        self.chip = chip
        self.device_id = device_id
        self.backed = backed
        if backed:
            limit_blas_threads()
        self.env = simpy.Environment()
        self.recorder = recorder if recorder is not None else TraceRecorder()
        self.track_pid = f"device {device_id}"
        self.memory = DeviceMemory(chip.hbm_bytes, chip.malloc_align_bytes, chip.malloc_round_bytes, backed)
        self.hbm = BandwidthServer("HBM", sustained_hbm_bytes_per_ns(chip))
        self.l2 = BandwidthServer("L2", l2_read_bytes_per_ns(chip))
        self.l2_cache = L2Cache(chip.l2_bytes)
        self.gm_l2 = GmL2(chip.l2_bytes) if chip.l2_cross_kernel_reuse else None
        self._compiled: dict[int, CompiledProgram] = {}
        self._spec_args: dict[int, tuple[KernelSpec, dict[str, Any]]] = {}   # id(spec) -> (spec, trace args)
        self._checked: dict[int, KernelPlan] = {}   # id(spec) -> its plan, for specs check_kernel passed
        self._finished: dict[tuple, tuple] = {}   # _finish_kernel's memo (see there)
        self._launches = 0
        self._tracks: dict[tuple, list[tuple[str, str]]] = {}
        self._stream_tracks: dict[int, tuple[str, str]] = {}
        self.host_link = BandwidthServer("host link", chip.host_link_bandwidth_bytes_per_ns)
        self.cores = make_cores(chip)
        self.scheduler = CoreScheduler(self.env, chip, self.cores)
        self._capacity = {ct: buffer_capacity(chip, ct) for ct in CoreType}
        self._used = {}   # core type -> (scheduler capacity, its unit names): fixed per chip
        for ct in CoreType:
            cap = self.scheduler.capacity(ct)
            self._used[ct] = (cap, ("AIC", "AIV") if ct is CoreType.MIX else ("AIC" if ct is CoreType.AIC else "AIV",))
        self.streams: dict[int, Stream] = {}
        self.events: dict[int, HwEvent] = {}
        self._next_id = 0
        self.pipe_busy_ns: dict[str, float] = {}
        #: completed kernels, oldest first (compact typed storage, npu_sim/records.py)
        self.kernel_records = KernelRecords()
        #: run a kernel's blocks without SimPy events when nothing else can run meanwhile
        #: (:meth:`_uncontended`); the times are identical either way (tests/perf/test_fast_path.py)
        self.fast_path = env_flag(FAST_PATH_ENV)
        #: kernels run on the fast path (a diagnostic)
        self.fast_kernels = 0
        #: one SimPy runner process per stream (npu_sim/stream_runner.py) instead of one process per
        #: task; same times and order of events (tests/perf/test_runner_exact.py). Set it before the
        #: first task is submitted.
        self.stream_runner = env_flag(STREAM_RUNNER_ENV)
        self._running = False   # inside run_until (see _one_event_ok)
        self._until = None      # its target event
        self._sole = True       # the step starting a task has its runner as last callback (stream_runner)

    def compiled(self, prog, aiv_split: int = 1) -> CompiledProgram:
        """``prog``'s stage costs on this chip, compiled once (cached by identity)."""
        key = (id(prog), aiv_split)
        cp = self._compiled.get(key)
        if cp is None or cp.prog is not prog:
            if len(self._compiled) > 4096:
                self._compiled.clear()
            cp = self._compiled[key] = compile_program(self.chip, prog, aiv_split)
        return cp

    def spec_args(self, spec: KernelSpec) -> dict[str, Any]:
        """:func:`spec_trace_args` of ``spec``, built at its first launch and kept
        (cached by identity, as :meth:`compiled`): phase 1 has finished with the spec by
        then, so repeated launches of one prepared kernel pay no dict building."""
        hit = self._spec_args.get(id(spec))
        if hit is None or hit[0] is not spec:
            if len(self._spec_args) > 4096:
                self._spec_args.clear()
            hit = self._spec_args[id(spec)] = (spec, spec_trace_args(spec))
        return hit[1]

    def pipe_tracks(self, core, pipes) -> list[tuple[str, str]]:
        """Trace tracks ("device 0", "AIC3 MTE2") of ``core``'s ``pipes`` (cached).
        ``core`` may be a MIX group: VECTOR/MTE3 go on its first AIV, the rest on its AIC."""
        names = tuple(c.name for c in core) if isinstance(core, tuple) else core.name
        key = (names, pipes)
        t = self._tracks.get(key)
        if t is None:
            if isinstance(core, tuple):
                t = [(self.track_pid, f"{core[1].name if p in AIV_PIPES else core[0].name} {p.value}") for p in pipes]
            else:
                t = [(self.track_pid, f"{core.name} {p.value}") for p in pipes]
            self._tracks[key] = t
        return t

    def _stream_track(self, stream: Stream) -> tuple[str, str]:
        """The trace track of ``stream``'s tasks, ("device 0", "stream 3") (cached)."""
        t = self._stream_tracks.get(stream.stream_id)
        if t is None:
            t = self._stream_tracks[stream.stream_id] = (self.track_pid, f"stream {stream.stream_id}")
        return t

    # ---- ids ------------------------------------------------------------------
    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def create_stream(self, priority: int = 0) -> Stream:
        s = Stream(self._new_id(), priority=priority)
        self.streams[s.stream_id] = s
        return s

    def create_event(self) -> HwEvent:
        e = HwEvent(self._new_id())
        self.events[e.event_id] = e
        return e

    # ---- task submission --------------------------------------------------------
    def _chain(self, stream: Stream, make, args: tuple, enqueue_ns: float, name: str) -> simpy.Process:
        """Queue ``make(*args)`` (a task's generator function and its arguments) as the
        stream's next task: a SimPy process that first waits for the stream's previous
        task and for the host time ``enqueue_ns`` (:func:`_task`). Behind an unfinished
        task it is a :class:`_Queued` process, whose generator is made when it starts."""
        stream.task_count += 1
        if self.stream_runner:
            return stream_runner.submit(self, stream, make, args, enqueue_ns, name)
        prev = stream.last
        if prev is not None and prev.callbacks is not None:   # not processed: start at its end
            stream.last = _Queued(self.env, prev, make, args, enqueue_ns, stream, name)
        else:
            stream.last = self.env.process(_task(self.env, prev, enqueue_ns, make(*args), stream, name))
        return stream.last

    def check_kernel(self, launch: KernelLaunch) -> None:
        """Raise :class:`KernelConfigError` if the kernel cannot run on this chip."""
        spec = launch.spec
        ct = spec.core_type
        if spec.block_dim <= 0:
            raise KernelConfigError(f"{spec.name}: block_dim must be >= 1")
        if ct is CoreType.MIX and self.chip.architecture.value != "separated":
            raise KernelConfigError(f"{spec.name}: MIX kernels (AIC + 2 AIV groups) need the separated architecture; "
                                    f"{self.chip.name} is {self.chip.architecture.value}")
        if not self.scheduler.capacity(ct):
            raise KernelConfigError(f"{spec.name}: chip {self.chip.name} has no {ct.value} cores")
        cap = self._capacity[ct]
        for buf, used in spec.buffers.items():
            if buf not in cap:
                raise KernelConfigError(f"{spec.name}: {ct.value} has no {buf.value} buffer")
            if used > cap[buf]:
                raise KernelConfigError(
                    f"{spec.name}: tiling needs {used} B of {buf.value} but {self.chip.name} has {cap[buf]} B")
        mix = ct is CoreType.MIX
        blocks = spec.blocks
        ids = list(map(id, blocks))
        distinct = dict(zip(ids, blocks))   # each program once: a spec repeats a few per block
        if not mix and any(isinstance(b, MixBlockProgram) for b in distinct.values()):
            raise KernelConfigError(f"{spec.name}: MixBlockProgram blocks need core_type MIX, not {ct.value}")
        split = 2 if mix else 1
        seen: dict[int, CompiledProgram | None] = {}
        fused = mix
        for key, b in distinct.items():
            if isinstance(b, MixBlockProgram) and len(b.aiv) > 2:
                raise KernelConfigError(f"{spec.name}: a MIX block has 2 AIVs, got {len(b.aiv)} AIV programs")
            try:  # compiled once per program and device; the run reuses it
                if isinstance(b, MixBlockProgram):
                    for p in (b.aic,) + b.aiv:
                        self.compiled(p)
                    seen[key] = None
                    fused = False
                else:
                    seen[key] = self.compiled(b, split)
            except ValueError as e:
                raise KernelConfigError(f"{spec.name}: {e}") from None
        if len(self._checked) > 4096:
            self._checked.clear()
        cps = None if mix else tuple(map(seen.__getitem__, ids))
        self._checked[id(spec)] = KernelPlan(spec, cps, fused, None if mix else tuple(seen.values()))

    def kernel_plan(self, spec: KernelSpec) -> KernelPlan:
        """``spec``'s :class:`~npu_sim.hardware.kernel_plan.KernelPlan` on this device, made
        by :meth:`check_kernel` (run here if it has not been for this spec object;
        raises :class:`KernelConfigError` as it does)."""
        plan = self._checked.get(id(spec))
        if plan is None or plan.spec is not spec:
            self.check_kernel(KernelLaunch(spec, None))
            plan = self._checked[id(spec)]
        return plan

    def submit_kernel(self, stream: Stream, launch: KernelLaunch, enqueue_ns: float,
                      flow_id: int | None = None) -> simpy.Process:
        """Enqueue a kernel. Raises KernelConfigError (before enqueueing) if it cannot run
        (:meth:`check_kernel`, run once per spec object: a spec is not changed once
        phase 1 made it, and the chip of a device never changes)."""
        spec = launch.spec
        plan = self._checked.get(id(spec))
        if plan is None or plan.spec is not spec:
            self.check_kernel(launch)
            plan = self._checked[id(spec)]
        # the kernel waits for its host time itself (_run_kernel), so that wait can share its launch event
        return self._chain(stream, self._run_kernel, (stream, launch, flow_id, enqueue_ns, plan), -_INF, spec.name)

    def _run_kernel(self, stream: Stream, launch: KernelLaunch, flow_id: int | None, enqueue_ns: float,
                    plan: KernelPlan | None = None):
        env = self.env
        spec = launch.spec
        now = env._now
        if enqueue_ns > now:   # the device is ahead of the host: the task starts at the host's enqueue time
            t0 = now + (enqueue_ns - now)   # the float the wait's SimPy timeout would reach
            if self._one_event_ok():
                # one event for the wait and the launch latency, due at the float the second
                # timeout would carry (see _one_event_ok why the order of events is unchanged)
                yield _due_event(env, t0 + self.chip.kernel_launch_ns)
            else:
                yield env.timeout(enqueue_ns - now)
                yield env.timeout(self.chip.kernel_launch_ns)
        else:
            t0 = now
            yield _due_event(env, now + self.chip.kernel_launch_ns)   # env.timeout(kernel_launch_ns)
        kind = spec.core_type
        stats = KernelStats()
        self._l2_resident(launch, stats)
        self._launches += 1
        scope = self._launches
        unit = "AIC" if kind is CoreType.AIC else "AIV"
        dispatch = self.chip.block_dispatch_ns
        mix = kind is CoreType.MIX
        prio = stream.priority
        if plan is None:
            plan = self.kernel_plan(spec)
        if (not mix or plan.fused_mix) and self.fast_path and self._uncontended(kind, len(spec.blocks)):
            # this step is the kernel's own timeout (one callback) and the queue is empty: nothing
            # can act before its blocks end, so the clock moves straight to that end (the exact float
            # the end event would carry) and the kernel finishes in this step
            # (hardware/inline.py: one-tile blocks in its generator-free loop, the others' run_block
            # generators in SimPy's order; the dispatch wait is taken there)
            end = run_kernel_inline(self, spec, stats, scope, unit, dispatch, plan)
            self.fast_kernels += 1
            if end > env._now:
                env._now = end
        else:
            yield from self._blocks_evented(spec, stats, scope, unit, dispatch, kind, prio, mix)
        self._finish_kernel(stream, launch, flow_id, t0, stats, kind, unit)

    def _one_event_ok(self) -> bool:
        """True when a kernel task that must wait for its host enqueue time may wait
        and pay its launch latency with one SimPy event instead of two, with the same
        times and the same order of events. It may when :meth:`run_until` is driving
        the clock and will not stop after this step (its target is not yet processed,
        or it runs until the queue is empty) and the SimPy queue is empty: then no
        other event exists, none can be created before the wait's timeout is processed
        (the host submits only while the device is stopped; the task is the last
        callback of the event that started it: a :class:`_Queued` start is added after
        its predecessor's only other callbacks, a plain process has its Initialize
        event alone; with the stream runner, ``_sole`` says whether the runner's resume
        is the last callback of the step that starts the task), so the launch timeout, created one step later, would be the only
        event at its time either way. Caveat: a KeyboardInterrupt raised by
        ``on_progress`` between the two steps stops the device with the merged event
        queued (the run is being abandoned)."""
        if not self._running or self.env._queue or not self._sole:
            return False
        until = self._until
        return until is None or until.callbacks is not None

    def _uncontended(self, kind: CoreType, nblocks: int) -> bool:
        """True when the kernel's blocks can run without SimPy events and give the
        event path's times: the SimPy queue is empty (nothing else on the device can
        act before these blocks end: every other process waits on an event only they
        or the host can trigger, and the host submits only while the device is
        stopped, which needs a processed event), no block waits for a core, and every
        block gets a core (a MIX kernel's: a group, ``CoreScheduler.free_groups``) at once."""
        sched = self.scheduler
        if self.env._queue or sched.waiters:
            return False
        if kind is CoreType.MIX:
            return sched.free_groups() >= nblocks
        free = sched.free
        n = 0
        for u in sched.sources[kind]:
            n += len(free[u])
        return n >= nblocks

    def _blocks_evented(self, spec, stats, scope, unit, dispatch, kind, prio, mix):
        """The reference path: one SimPy process per block (cores.py hands out the cores)."""
        env = self.env
        sched = self.scheduler
        release = sched.release
        procs = []
        for prog in spec.blocks:
            got = sched.acquire(kind, prio)
            if isinstance(got, simpy.Event):
                got = yield got
            if mix:
                procs.append(env.process(self._mix_block(got, prog, spec, stats, dispatch, scope, unit)))
            else:
                procs.append(env.process(run_block(self, got, prog, spec, stats, scope, unit, dispatch, release)))
        yield simpy.AllOf(env, procs)

    def _finish_kernel(self, stream, launch, flow_id, t0, stats, kind, unit) -> None:
        """The kernel's body, pipe totals, metrics, record and stream task span.

        The trace args (spec args, task facts, pipe busy ns, bytes, metrics, L2
        counters) are a function of the spec and of what the blocks did (``stats``)
        and the duration alone, so they are built once per distinct ``(spec, dur,
        stats)`` and the dict is shared by the launches that repeat it (a bounded
        memo, which also keeps the spec's trace args the dict was built from and its
        pipe busy ns as pairs): the record store and the recorder copy it, nobody
        mutates it."""
        env = self.env
        spec = launch.spec
        if launch.body is not None and self.backed:
            launch.body(self.memory)
        dur = env.now - t0
        busy = stats.busy
        fixed = stats.fixed   # Pipe members by id: they live as long as the process, and hash as ints
        key = (id(spec), dur, tuple(map(id, busy)), tuple(busy.values()), tuple(map(id, fixed)),
               tuple(fixed.values()), tuple(stats.core_ns.items()), stats.gm_bytes, stats.hbm_bytes,
               stats.l2_hit_bytes, stats.writeback_bytes, stats.resident_in)
        memo = self._finished
        hit = memo.get(key)
        if hit is None or hit[0] is not spec:
            if len(memo) > 4096:
                memo.clear()
            args = self._kernel_args(spec, dur, stats, kind, unit)
            hit = memo[key] = (spec, args, self.spec_args(spec), tuple(args["pipe_busy_ns"].items()))
        _, args, static, pipe_busy = hit
        pb = self.pipe_busy_ns
        for p, b in pipe_busy:
            pb[p] = pb.get(p, 0.0) + b
        self.kernel_records.append_parts({"name": spec.name, "stream": stream.stream_id, "start_ns": t0,
                                          "dur_ns": dur}, args, static)
        self.recorder.span(self._stream_track(stream), spec.name, t0, dur, "task", args, flow_id)

    def _kernel_args(self, spec, dur, stats, kind, unit) -> dict[str, Any]:
        """A kernel's trace args (see :meth:`_finish_kernel`)."""
        name = _PIPE_NAMES.get   # p.value without the Enum property lookup (anything else: p.value)
        busy_out = {name(id(p)) or p.value: b for p, b in stats.busy.items()}
        fixed_out = {name(id(p)) or p.value: b for p, b in stats.fixed.items()}
        cap, units = self._used[kind]
        n = spec.block_dim
        if kind is CoreType.MIX:
            g = min(n, cap)
            used = {"AIC": g, "AIV": 2 * g}
        else:
            used = {unit: min(n, cap)}
        met = kernel_metrics(self.chip, dur, busy_out, fixed_out, stats.core_ns,
                             used, spec.flops, stats.gm_bytes, stats.hbm_bytes, stats.l2_hit_bytes)
        args = dict(self.spec_args(spec), task_type=TASK_TYPES[kind], block_dim=spec.block_dim,
                    tiling_key=spec.tiling_key, pipe_busy_ns=busy_out, gm_bytes=stats.gm_bytes,
                    hbm_bytes=stats.hbm_bytes, l2_hit_bytes=stats.l2_hit_bytes, **met)
        self._l2_counters(args, stats)
        return args

    def _l2_resident(self, launch: KernelLaunch, stats: KernelStats) -> None:
        """The L2 kept across kernels (hardware/l2.py ``GmL2``): the share of the
        launch's input bytes resident at its start goes into ``stats.resident`` (read
        bytes the pipeline serves from L2), ``stats.resident_keyed`` says whether keyed
        misses may use it too (the kernel's footprint fits in L2, so its keyed misses are
        first touches, not capacity misses), and the launch's ranges update the state.
        A launch without ranges (``gm`` None) leaves both alone."""
        gm = launch.gm
        cache = self.gm_l2
        if gm is None or cache is None:
            return
        hit, total, foot = cache.kernel_footprint(*gm)
        stats.resident_in = hit
        if hit and total:
            stats.resident = hit / total
            stats.resident_keyed = foot <= cache.capacity_bytes

    @staticmethod
    def _l2_counters(args, stats) -> None:
        """The kernel's L2 counters in its record and trace args: ``l2_hit_rate`` (L2
        bus bytes, keyed writes absorbed included, over all GM bus bytes),
        ``l2_writeback_bytes`` (dirty bytes it evicted to HBM; hardware/l2.py) and
        ``l2_resident_in_bytes`` (input bytes found in the L2 kept across kernels)."""
        total = stats.l2_hit_bytes + stats.hbm_bytes
        args["l2_hit_rate"] = stats.l2_hit_bytes / total if total else 0.0
        args["l2_writeback_bytes"] = stats.writeback_bytes
        args["l2_resident_in_bytes"] = stats.resident_in

    def _mix_block(self, group, prog, spec, stats, dispatch, scope, unit):
        env = self.env
        if dispatch:
            yield env.timeout(dispatch)
        if isinstance(prog, MixBlockProgram):
            procs = [env.process(run_block(self, group[0], prog.aic, spec, stats, scope, "AIC"))]
            procs += [env.process(run_block(self, group[1 + k], p, spec, stats, scope, "AIV"))
                      for k, p in enumerate(prog.aiv)]
            yield simpy.AllOf(env, procs)
        else:
            yield from run_block(self, group, prog, spec, stats, scope, unit)
        self.scheduler.release(group)

    def submit_memcpy(self, stream: Stream, nbytes: int, kind: str, apply: Callable[[], None] | None,
                      enqueue_ns: float, flow_id: int | None = None, dst=None, blocking: bool = False) -> simpy.Event:
        """Enqueue a copy of ``nbytes``. ``kind``: "H2D", "D2H", "D2D" (H2H is host-only),
        or "MEMSET" (aclrtMemset: ``nbytes`` written, nothing read). ``apply`` moves the
        bytes when the copy completes. ``dst``: the (address, nbytes) device range it
        writes, or None; the L2 kept across kernels forgets it when the copy ends
        (hardware/l2.py ``GmL2.invalidate``). Time: see hardware/cost.py ``memcpy_ns`` / ``memset_ns``.
        Returns the task's end event. ``blocking``: the caller runs the device until that
        event at once (a synchronous copy); on an idle device the copy then runs here,
        without SimPy steps, to the same times (npu_sim/memcpy_fast.py), and the event
        returned has been processed."""
        args = (stream, nbytes, kind, apply, flow_id, dst)
        if blocking and memcpy_fast.ENABLED and memcpy_fast.idle(self, stream):
            return memcpy_fast.run_now(self, stream, self._run_memcpy, args, enqueue_ns, f"memcpy {kind}")
        return self._chain(stream, self._run_memcpy, args, enqueue_ns, f"memcpy {kind}")

    def _run_memcpy(self, stream, nbytes, kind, apply, flow_id, dst=None):
        env = self.env
        t0 = env.now
        if kind in ("H2D", "D2H"):
            fin = self.host_link.reserve(t0, nbytes) + self.chip.host_link_latency_ns
        else:
            fin = self.hbm.reserve(t0, nbytes if kind == "MEMSET" else 2 * nbytes) + self.chip.dma_latency_ns
        yield env.timeout(fin - t0)
        if apply is not None:
            apply()
        if dst is not None and self.gm_l2 is not None:   # [A] DMA writes do not allocate in L2
            self.gm_l2.invalidate(*dst)
        name, task = ("MEMSET", "MEMSET") if kind == "MEMSET" else (f"MEMCPY {kind}", "MEMCPY")
        self.recorder.span((self.track_pid, f"stream {stream.stream_id}"), name, t0, env.now - t0,
                           "memcpy", {"bytes": nbytes, "task_type": task}, flow_id=flow_id)

    def submit_record(self, stream: Stream, event: HwEvent, enqueue_ns: float) -> simpy.Event:
        """Enqueue EVENT_RECORD; returns the SimPy event that fires when it runs."""
        fired = self.env.event()
        event.records.append(fired)
        waits, event.pending_waits = event.pending_waits, []

        def gen():
            event.timestamp_ns = self.env.now
            fired.succeed(self.env.now)
            for w in waits:
                w.succeed()
            self.recorder.span((self.track_pid, f"stream {stream.stream_id}"), "EVENT_RECORD", self.env.now, 0.0,
                               "task", {"event": event.event_id, "task_type": "EVENT_RECORD"})
            return
            yield  # pragma: no cover

        self._chain(stream, gen, (), enqueue_ns, "EVENT_RECORD")
        return fired

    def submit_wait(self, stream: Stream, event: HwEvent, enqueue_ns: float) -> None:
        """Enqueue STREAM_WAIT_EVENT: later tasks wait for the event's latest record,
        or, if it was never recorded, for its next record."""
        if event.records:
            target = event.records[-1]
        else:
            target = self.env.event()
            event.pending_waits.append(target)

        def gen():
            t0 = self.env.now
            if not target.processed:
                yield target
            self.recorder.span((self.track_pid, f"stream {stream.stream_id}"), "STREAM_WAIT_EVENT", t0,
                               self.env.now - t0, "task", {"event": event.event_id, "task_type": "STREAM_WAIT_EVENT"})

        self._chain(stream, gen, (), enqueue_ns, "STREAM_WAIT_EVENT")

    # ---- running the clock -----------------------------------------------------
    def run_until(self, event: simpy.Event | None, on_progress: Callable[[int], None] | None = None,
                  every: int = 256) -> bool:
        """Advance the device until ``event`` has been processed (or until nothing is
        left when ``event`` is None). Returns False if the simulation ran dry first:
        a deadlock, such as a stream waiting on an event that nobody records.
        ``on_progress(kernels_done)`` is called every ``every`` SimPy steps."""
        env = self.env
        step = env.step
        queue = env._queue   # what env.peek() reads: the next event's time, inf when none
        inf = float("inf")
        n = 0
        self._running = True
        self._until = event
        try:
            while event is None or event.callbacks is not None:   # not event.processed
                if not queue or queue[0][0] == inf:
                    return event is None
                step()
                if on_progress is not None:
                    n += 1
                    if n % every == 0:
                        on_progress(len(self.kernel_records))
            return True
        finally:
            self._running = False
            self._until = None

    def blocked_streams(self) -> list[Stream]:
        """Streams whose newest task has not finished (after a run, these are stuck)."""
        return [s for s in self.streams.values() if s.last is not None and not s.last.processed]

    # ---- trace data ---------------------------------------------------------------
    def trace_metadata(self) -> dict[str, Any]:
        """Chip facts a trace of this device needs (plain JSON types): ``{"chip": name,
        "devices": {track_pid: {"chip", "architecture", "aic_count", "aiv_count",
        "clock_hz"}}}``; the analysis in ``traces`` uses the core counts for utilisation."""
        chip = self.chip
        arch = chip.architecture
        info = {"chip": chip.name, "architecture": getattr(arch, "value", arch),
                "aic_count": len(self.cores[CoreType.AIC]), "aiv_count": len(self.cores[CoreType.AIV]),
                "clock_hz": float(chip.clock_hz)}
        return {"chip": chip.name, "devices": {self.track_pid: info}}

    def trace_records(self) -> tuple[list, list, dict[str, Any]]:
        """``(spans, counters, metadata)`` of the device tracks recorded so far, as plain
        data for ``traces`` (``traces.to_chrome_trace(device)`` calls this)."""
        rec = self.recorder
        return rec.spans, rec.counters, self.trace_metadata()
