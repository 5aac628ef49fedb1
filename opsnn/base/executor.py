"""aclOpExecutor: what phase 1 prepares and phase 2 runs, and its lifecycle calls.

Two objects (opbase keeps the same split between an executor and what it caches):

* :class:`ExecutorPlan` -- everything phase 1 decided: op name, kernels (timed spec +
  body factory), the slot tensors' *metadata*, workspace size, tiling info and the
  chip. It holds no device address and never changes after phase 1, so many
  executors can share one (the executor cache, :mod:`opsnn.base.cache`, keeps plans).
* :class:`aclOpExecutor` -- the handle a caller gets: a plan, the tensors of *this*
  call (addresses are read from them at phase 2), address overrides set with
  ``aclSetInputTensorAddr`` / ``aclSetOutputTensorAddr`` / ``aclSetTensorAddr``, and
  the lifecycle state. Handles come from a reference-count-checked object pool
  (:mod:`opsnn.base.pool`): ``aclOpExecutor(...)`` reuses a released one when it can.

Lifecycle (CANN aclnn two-phase docs, DESIGN.md section 5):

==============================  ==============================================
state                           what is allowed
==============================  ==============================================
prepared (single-use, default)  one phase-2 run, which releases it; rebinding
                                addresses; ``aclSetAclOpExecutorRepeatable``;
                                ``aclDestroyAclOpExecutor`` (drop it unrun)
repeatable                      any number of runs and rebinds until destroyed
released (single-use, ran)      nothing: every call returns 161002
destroyed                       nothing: every call returns 161002
==============================  ==============================================

Every misuse returns a status and sets ``aclGetRecentErrMsg()``; nothing raises.
Slots are numbered inputs first, then outputs (``aclSetTensorAddr`` uses that
numbering; the Input/Output variants count within their group).
"""
from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from typing import Callable, Sequence

from npu_sim.program import KernelBody, KernelLaunch, KernelSpec

from .pool import POOL
from .status import ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, ACLNN_SUCCESS, LAST_ERROR
from .tensor import aclTensor

#: (addresses of every slot, inputs then outputs; workspace address) -> functional body.
#: A factory may capture tensor *metadata* (shape, strides, offset, dtype) but never an
#: address: addresses arrive here, at phase 2 (the executor cache relies on it).
BodyFactory = Callable[[Sequence[int], int], KernelBody]

#: lifecycle states (``aclOpExecutor.state``)
PREPARED = 0    #: single-use, not run yet
REPEATABLE = 1  #: aclSetAclOpExecutorRepeatable was called
RELEASED = 2    #: single-use and already ran
DESTROYED = 3   #: aclDestroyAclOpExecutor was called

STATE_NAMES = {PREPARED: "prepared", REPEATABLE: "repeatable", RELEASED: "released", DESTROYED: "destroyed"}


@dataclass
class PreparedKernel:
    """One kernel launch recorded in phase 1: its timed spec and how to build its
    numpy body once addresses are known."""

    spec: KernelSpec
    make_body: BodyFactory


class ExecutorPlan:
    """The immutable outcome of phase 1, shareable by many executors.

    Attributes:
        op_name: op type without the ``aclnn`` prefix ("Add").
        kernels: :class:`PreparedKernel` list, run in order.
        inputs / outputs: the tensors phase 1 saw (metadata only is used later).
        workspace_size: bytes phase 2 needs.
        info: tiling decisions, for users and traces.
        n_inputs: number of input slots.
        chip: the ChipConfig the kernels were tiled for (set by ``prepare``).
        slot_pos: for cached plans, where each slot's tensor sits among the
            tensors of a phase-1 call (set by the executor cache).
        prepare_ns: simulated host cost of the phase 1 that built it (ns).
        launch_args: per kernel, the host-span args of its launch.
        tiling: the op's :class:`~opsnn.base.tiling_base.TilingResult`, when its
            builder passed one.
        report: the :class:`~opsnn.base.report.Phase1Report` (set by ``prepare``).
    """

    __slots__ = ("op_name", "kernels", "inputs", "outputs", "workspace_size", "info", "n_inputs", "chip",
                 "slot_pos", "prepare_ns", "launch_args", "launch_name", "tiling", "report", "__weakref__")

    def __init__(self, op_name: str, kernels: list, inputs: list, outputs: list, workspace_size: int = 0,
                 info: dict | None = None, tiling=None) -> None:
        self.op_name = op_name
        self.kernels = kernels
        self.inputs = list(inputs)
        self.outputs = list(outputs)
        self.workspace_size = int(workspace_size)
        self.info = info if info is not None else {}
        self.n_inputs = len(self.inputs)
        self.chip = None
        self.slot_pos: tuple[int, ...] | None = None
        self.prepare_ns = 0.0
        self.launch_args: list[dict] | None = None
        self.launch_name = f"aclnn{op_name}"
        self.tiling = tiling
        self.report = None

    def __repr__(self) -> str:
        return (f"ExecutorPlan({self.op_name}, kernels={[k.spec.name for k in self.kernels]}, "
                f"slots={self.n_inputs}+{len(self.outputs)}, workspace={self.workspace_size})")


class aclOpExecutor:  # noqa: N801 (CANN spelling)
    """A prepared operator handle (see the module docstring for the lifecycle).

    Builders create one exactly as before: ``aclOpExecutor(op_name, kernels,
    inputs, outputs, workspace_size=0, info=...)``. Attributes ``op_name``,
    ``kernels``, ``info`` come from the shared plan; ``inputs`` / ``outputs`` are
    the tensors of the phase-1 call that produced this handle; ``workspace_size``
    (bytes) is this handle's own copy.
    """

    __slots__ = ("plan", "slots", "overrides", "workspace_size", "state", "runs", "gm_layout", "gm_last",
                 "__weakref__")

    def __new__(cls, *args, **kwargs):
        h = POOL.take()
        return h if h is not None else object.__new__(cls)

    def __init__(self, op_name: str, kernels: list, inputs: list, outputs: list, workspace_size: int = 0,
                 repeatable: bool = False, info: dict | None = None, tiling=None) -> None:
        plan = ExecutorPlan(op_name, kernels, inputs, outputs, workspace_size, info, tiling)
        self.plan = plan
        self.slots = plan.inputs + plan.outputs
        self.gm_layout: list | None = None   # per slot (is_input, byte offset, extent), made at first launch
        self.gm_last: tuple | None = None    # (layout, addrs, workspace, ranges) of the latest launch (op._ranges)
        self.overrides: list | None = None
        self.workspace_size = plan.workspace_size
        self.state = REPEATABLE if repeatable else PREPARED
        self.runs = 0

    @classmethod
    def bind(cls, plan: ExecutorPlan, slots: list) -> "aclOpExecutor":
        """A handle for ``plan`` whose slot tensors are ``slots`` (from the pool when
        one is idle). Used by the executor cache on a hit: no validation, no tiling."""
        h = POOL.take()
        if h is None:
            h = object.__new__(cls)
        h.plan = plan
        h.slots = slots
        h.gm_layout = None
        h.gm_last = None
        h.overrides = None
        h.workspace_size = plan.workspace_size
        h.state = PREPARED
        h.runs = 0
        return h

    # ---- read-only views of the plan ------------------------------------------------
    @property
    def op_name(self) -> str:
        return self.plan.op_name

    @property
    def kernels(self) -> list:
        return self.plan.kernels

    @property
    def report(self):
        """The :class:`~opsnn.base.report.Phase1Report` of the phase 1 that made this
        executor (strategy, candidates tried, workspace parts)."""
        return self.plan.report

    @property
    def info(self) -> dict:
        return self.plan.info

    @property
    def inputs(self) -> list:
        return self.slots[:self.plan.n_inputs]

    @property
    def outputs(self) -> list:
        return self.slots[self.plan.n_inputs:]

    @property
    def repeatable(self) -> bool:
        return self.state == REPEATABLE

    @property
    def destroyed(self) -> bool:
        return self.state == DESTROYED

    @property
    def released(self) -> bool:
        """True once the executor can no longer run (single-use after its run, or destroyed)."""
        return self.state >= RELEASED

    def slot_addrs(self) -> list[int]:
        """Current address of every slot (override, else the tensor's own; 0 if none)."""
        ov = self.overrides
        if ov is None:
            return [t.tensor_data if t is not None else 0 for t in self.slots]
        return [o if o is not None else (t.tensor_data if t is not None else 0) for o, t in zip(ov, self.slots)]

    def __repr__(self) -> str:
        return (f"aclOpExecutor({self.plan.op_name}, {STATE_NAMES[self.state]}, runs={self.runs}, "
                f"workspace={self.workspace_size})")


def _err(code: int, msg: str) -> int:
    LAST_ERROR.message = f"[{code}] {msg}"
    return code


def _release(executor: aclOpExecutor, state: int) -> None:
    """Move a live executor to RELEASED or DESTROYED and give it back to the pool."""
    executor.state = state
    POOL.give(executor)


def _dead(executor, what: str) -> int | None:
    """The status for a call on a null / foreign / released / destroyed executor, else None."""
    if executor is None:
        return _err(ACLNN_ERR_PARAM_NULLPTR, f"{what}: executor is null")
    if not isinstance(executor, aclOpExecutor):
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: not an aclOpExecutor (got {type(executor).__name__})")
    if executor.state == DESTROYED:
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: executor was destroyed")
    if executor.state == RELEASED:
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: executor was already released by its single run "
                                             "(call aclSetAclOpExecutorRepeatable right after phase 1 to keep it)")
    return None


def aclSetAclOpExecutorRepeatable(executor) -> int:  # noqa: N802
    """Allow ``executor`` to run many times. Call it after phase 1 and before the
    first run (calling it again is harmless). 161001 null executor; 161002 an
    executor already released by its run, destroyed, or not an executor."""
    bad = _dead(executor, "aclSetAclOpExecutorRepeatable")
    if bad is not None:
        return bad
    executor.state = REPEATABLE
    return ACLNN_SUCCESS


def aclDestroyAclOpExecutor(executor) -> int:  # noqa: N802
    """Free an executor: a repeatable one, or a single-use one that will never run.
    161001 null; 161002 destroyed twice, already released by its single run, or
    not an executor. Work already enqueued by it still completes (its addresses
    were bound at phase 2)."""
    bad = _dead(executor, "aclDestroyAclOpExecutor")
    if bad is not None:
        return bad
    _release(executor, DESTROYED)
    return ACLNN_SUCCESS


def _set_addr(executor, index, tensor, addr, base: int, group: str, what: str) -> int:
    bad = _dead(executor, what)
    if bad is not None:
        return bad
    plan = executor.plan
    n_in, n_all = plan.n_inputs, len(executor.slots)
    count = {"input": n_in, "output": n_all - n_in, "slot": n_all}[group]
    if isinstance(index, bool) or not isinstance(index, Integral):
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: {group} index {index!r} out of range [0, {count}) for "
                                             f"aclnn{plan.op_name}: an index is an int, not {type(index).__name__}")
    if not 0 <= index < count:
        return _err(ACLNN_ERR_PARAM_INVALID,
                    f"{what}: {group} index {index!r} out of range [0, {count}) for aclnn{plan.op_name}")
    if isinstance(addr, bool) or not isinstance(addr, Integral):
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: address {addr!r} must be a non-negative 32-byte aligned int "
                                             f"(a device address), not {type(addr).__name__}")
    index, addr = int(index), int(addr)
    if addr < 0 or addr % 32:
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: address {addr:#x} must be a non-negative 32-byte aligned int")
    if tensor is not None and not isinstance(tensor, aclTensor):
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: tensor must be an aclTensor or None, "
                                             f"got {type(tensor).__name__}")
    if executor.overrides is None:
        executor.overrides = [None] * n_all
    executor.overrides[base + index] = addr
    if tensor is not None:
        tensor.tensor_data = addr
    return ACLNN_SUCCESS


def aclSetInputTensorAddr(executor, index: int, tensor, addr: int) -> int:  # noqa: N802
    """Rebind input ``index`` of ``executor`` to device address ``addr`` (32 B aligned)
    and update ``tensor`` (the aclTensor given for that input, or None) to match.
    ``index`` and ``addr`` may be Python or numpy integers (not bools or floats).
    161001 null executor; 161002 not an executor, index not an int or out of range,
    address not an int / negative / misaligned, tensor not an aclTensor, released or
    destroyed executor."""
    return _set_addr(executor, index, tensor, addr, 0, "input", "aclSetInputTensorAddr")


def aclSetOutputTensorAddr(executor, index: int, tensor, addr: int) -> int:  # noqa: N802
    """Rebind output ``index`` of ``executor`` to ``addr``; errors as aclSetInputTensorAddr."""
    base = executor.plan.n_inputs if isinstance(executor, aclOpExecutor) else 0
    return _set_addr(executor, index, tensor, addr, base, "output", "aclSetOutputTensorAddr")


def aclSetTensorAddr(executor, index: int, tensor, addr: int) -> int:  # noqa: N802
    """Rebind slot ``index`` (inputs first, then outputs) to ``addr``; errors as
    aclSetInputTensorAddr."""
    return _set_addr(executor, index, tensor, addr, 0, "slot", "aclSetTensorAddr")


def make_launches(executor: aclOpExecutor, addrs: Sequence[int], workspace: int) -> list[KernelLaunch]:
    """Bind addresses into each prepared kernel (what a deferred launch does when the
    simulator picks it up; kept for callers that want the launches themselves)."""
    return [KernelLaunch(k.spec, k.make_body(addrs, workspace)) for k in executor.plan.kernels]

