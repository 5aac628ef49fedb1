"""aclOpExecutor: what phase 1 prepares and phase 2 runs, and its lifecycle calls.

Lifecycle (CANN two-phase docs, DESIGN.md section 5): an executor is single-use
unless ``aclSetAclOpExecutorRepeatable`` is called after phase 1; a single-use
executor is released by its phase-2 run and a second run fails with 161002. A
repeatable executor runs any number of times until ``aclDestroyAclOpExecutor``.
The executor keeps tensor *metadata* slots (inputs, then outputs); device addresses
are read from the tensors at phase 2, or from ``aclSetInputTensorAddr`` /
``aclSetOutputTensorAddr`` overrides.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Sequence

from npu_sim.program import KernelBody, KernelLaunch, KernelSpec

from .status import ACLNN_ERR_PARAM_INVALID, ACLNN_ERR_PARAM_NULLPTR, ACLNN_SUCCESS, LAST_ERROR
from .tensor import aclTensor

#: (addresses of every slot, inputs then outputs; workspace address) -> functional body
BodyFactory = Callable[[Sequence[int], int], KernelBody]


@dataclass
class PreparedKernel:
    """One kernel launch recorded in phase 1: its timed spec and how to build its
    numpy body once addresses are known."""

    spec: KernelSpec
    make_body: BodyFactory


@dataclass(eq=False)
class aclOpExecutor:  # noqa: N801
    """A prepared operator. ``kernels`` run in order on the stream given to phase 2."""

    op_name: str
    kernels: list[PreparedKernel]
    inputs: list[aclTensor]
    outputs: list[aclTensor]
    workspace_size: int = 0
    repeatable: bool = False
    runs: int = 0
    destroyed: bool = False
    info: dict = field(default_factory=dict)  #: tiling decisions, for users and traces
    overrides: list = field(default_factory=list)

    def __post_init__(self) -> None:
        self.overrides = [None] * (len(self.inputs) + len(self.outputs))

    def slot_addrs(self) -> list[int]:
        """Current address of every slot (override, else the tensor's own)."""
        tensors = self.inputs + self.outputs
        return [o if o is not None else (t.tensor_data if t is not None else 0)
                for o, t in zip(self.overrides, tensors)]


def _err(code: int, msg: str) -> int:
    LAST_ERROR.message = f"[{code}] {msg}"
    return code


def aclSetAclOpExecutorRepeatable(executor) -> int:  # noqa: N802
    """Allow ``executor`` to run many times (call right after phase 1)."""
    if executor is None:
        return _err(ACLNN_ERR_PARAM_NULLPTR, "aclSetAclOpExecutorRepeatable: executor is null")
    if executor.destroyed or (executor.runs and not executor.repeatable):
        return _err(ACLNN_ERR_PARAM_INVALID, "aclSetAclOpExecutorRepeatable: executor was already released")
    executor.repeatable = True
    return ACLNN_SUCCESS


def aclDestroyAclOpExecutor(executor) -> int:  # noqa: N802
    """Release a repeatable executor. 161002 if already destroyed or released."""
    if executor is None:
        return _err(ACLNN_ERR_PARAM_NULLPTR, "aclDestroyAclOpExecutor: executor is null")
    if executor.destroyed:
        return _err(ACLNN_ERR_PARAM_INVALID, "aclDestroyAclOpExecutor: executor already destroyed")
    executor.destroyed = True
    return ACLNN_SUCCESS


def _set_addr(executor, index: int, tensor, addr: int, base: int, count: int, what: str) -> int:
    if executor is None:
        return _err(ACLNN_ERR_PARAM_NULLPTR, f"{what}: executor is null")
    if executor.destroyed:
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: executor was destroyed")
    if not isinstance(index, int) or not 0 <= index < count:
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: index {index!r} out of range [0, {count})")
    if not isinstance(addr, int) or addr < 0 or addr % 32:
        return _err(ACLNN_ERR_PARAM_INVALID, f"{what}: address {addr!r} must be a 32-byte aligned int")
    executor.overrides[base + index] = addr
    if tensor is not None:
        tensor.tensor_data = addr
    return ACLNN_SUCCESS


def aclSetInputTensorAddr(executor, index: int, tensor, addr: int) -> int:  # noqa: N802
    """Rebind input ``index`` of ``executor`` to device address ``addr``."""
    n = len(executor.inputs) if executor is not None else 0
    return _set_addr(executor, index, tensor, addr, 0, n, "aclSetInputTensorAddr")


def aclSetOutputTensorAddr(executor, index: int, tensor, addr: int) -> int:  # noqa: N802
    """Rebind output ``index`` of ``executor`` to device address ``addr``."""
    if executor is None:
        return _set_addr(None, index, tensor, addr, 0, 0, "aclSetOutputTensorAddr")
    return _set_addr(executor, index, tensor, addr, len(executor.inputs), len(executor.outputs),
                     "aclSetOutputTensorAddr")


def aclSetTensorAddr(executor, index: int, tensor, addr: int) -> int:  # noqa: N802
    """Rebind slot ``index`` (inputs first, then outputs) to ``addr``."""
    n = len(executor.overrides) if executor is not None else 0
    return _set_addr(executor, index, tensor, addr, 0, n, "aclSetTensorAddr")


def make_launches(executor: aclOpExecutor, addrs: Sequence[int], workspace: int) -> list[KernelLaunch]:
    """Phase 2's only real work: bind addresses into each prepared kernel."""
    return [KernelLaunch(k.spec, k.make_body(addrs, workspace)) for k in executor.kernels]
