"""The l0 ops ``Contiguous`` and ``ViewCopy`` as phase 1 uses them, and the
:class:`WorkspacePlan` that places their buffers in an op's workspace.

An ops-nn ``aclnnXxxGetWorkspaceSize`` calls ``l0op::Contiguous(x)`` on every input
(a no-op for a contiguous view), runs its l0 kernel on the contiguous copies, and
ends with ``l0op::ViewCopy(result, out)`` to write into the caller's ``out`` view.
The copies live in the op's workspace, which phase 1 sizes and phase 2 receives.
Cost formula: ``tiling.py``; tile program and bodies: ``kernel.py``.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_sim import ChipConfig

from ...base.checks import invalid
from ...base.executor import PreparedKernel
from ...base.tensor import aclTensor, contiguous_strides
from ...base.tiling_base import align_up
from .kernel import contiguous_body, tile_program, view_copy_body
from .tiling import contiguous_tiling, has_broadcast, view_copy_tiling, view_gather_bytes, view_scatter_bytes

#: alignment of each buffer placed in an op's workspace (device addresses are 32 B aligned)
WS_ALIGN_BYTES = 32


def needs_copy(t: aclTensor) -> bool:
    """True if ``t``'s view is not row-major contiguous (size-1 dims ignored). A
    contiguous view at an element offset needs no copy."""
    want = contiguous_strides(t.view_shape)
    return any(d != 1 and s != w for d, s, w in zip(t.view_shape, t.view_strides, want))


def gather_bytes(t: aclTensor) -> int:
    """MTE2 bytes to read view ``t`` into UB contiguously (:func:`~.tiling.view_gather_bytes`)."""
    return view_gather_bytes(t.view_shape, t.view_strides, t.itemsize)


def scatter_bytes(t: aclTensor) -> int:
    """MTE3 bytes to write a contiguous UB buffer into view ``t`` (:func:`~.tiling.view_scatter_bytes`)."""
    return view_scatter_bytes(t.view_shape, t.view_strides, t.itemsize)


def contiguous_meta(t: aclTensor) -> aclTensor:
    """Metadata of a row-major copy of ``t``'s view (ND, offset 0, address unset)."""
    return aclTensor(t.view_shape, t.data_type, contiguous_strides(t.view_shape), 0, 2, t.view_shape, 0)


@dataclass(frozen=True)
class TensorRef:
    """Where a kernel finds a tensor in phase 2: executor slot ``slot`` (the caller's
    tensor, view as given) or, when ``slot`` is None, ``ws_offset`` bytes into the
    workspace (a contiguous buffer described by ``meta``)."""

    meta: aclTensor
    slot: int | None
    ws_offset: int = 0

    def addr(self, addrs, ws: int) -> int:
        """Device address of the tensor's storage given the slot addresses and the
        workspace address of one phase-2 run."""
        return addrs[self.slot] if self.slot is not None else ws + self.ws_offset

    @property
    def in_workspace(self) -> bool:
        return self.slot is None


@dataclass
class ContiguousCopy:
    """A prepared ``Contiguous`` copy: the kernel, the workspace bytes the copy
    occupies, the contiguous tensor it produces and its byte offset in workspace."""

    kernel: PreparedKernel
    workspace_bytes: int
    tensor: aclTensor
    ws_offset: int


def _trace_args(t: aclTensor, op: str) -> dict:
    return {"op": op, "shapes": [list(t.view_shape)], "dtype": t.dtype_name, "strides": list(t.view_strides),
            "offset": t.view_offset}


def prepare_contiguous(chip: ChipConfig, t: aclTensor, slot: int, ws_offset: int, op: str = "") -> ContiguousCopy:
    """Phase 1 of ``l0op::Contiguous``: copy the view in executor slot ``slot`` into a
    row-major buffer at ``ws_offset`` bytes into the workspace. Needs ``t.numel > 0``."""
    res = contiguous_tiling(chip, t.view_shape, t.view_strides, t.itemsize)
    spec = tile_program(res.data, _trace_args(t, op), res.tiling_key)
    return ContiguousCopy(PreparedKernel(spec, contiguous_body(t, slot, ws_offset)),
                          align_up(t.nbytes, WS_ALIGN_BYTES), contiguous_meta(t), ws_offset)


def prepare_view_copy(chip: ChipConfig, ws_offset: int, out: aclTensor, slot: int, op: str = "") -> PreparedKernel:
    """Phase 1 of ``l0op::ViewCopy``: copy the row-major result at ``ws_offset`` bytes
    into the workspace to the (non-contiguous) ``out`` view in executor slot ``slot``."""
    res = view_copy_tiling(chip, out.view_shape, out.view_strides, out.itemsize)
    spec = tile_program(res.data, _trace_args(out, op), res.tiling_key)
    return PreparedKernel(spec, view_copy_body(out, slot, ws_offset))


class WorkspacePlan:
    """Phase-1 bookkeeping of an op's workspace and its copy kernels (package docstring).

    ``size`` is the workspace in bytes the op must report; ``kernels(main)`` gives the
    launch order: every Contiguous copy, the op's own kernels, every ViewCopy.
    """

    def __init__(self, chip: ChipConfig, op: str):
        self.chip = chip
        self.op = op
        self.size = 0
        self.before: list[PreparedKernel] = []
        self.after: list[PreparedKernel] = []

    def alloc(self, nbytes: int) -> int:
        """Reserve ``nbytes`` (32 B aligned) of workspace; returns its byte offset."""
        off = self.size
        self.size += align_up(max(int(nbytes), 0), WS_ALIGN_BYTES)
        return off

    def input(self, t: aclTensor, slot: int) -> TensorRef:
        """The tensor as the op's kernel should read it: ``t`` itself when its view is
        contiguous, else a Contiguous copy in workspace."""
        if not needs_copy(t) or t.numel == 0:
            return TensorRef(t, slot)
        cc = prepare_contiguous(self.chip, t, slot, self.alloc(t.nbytes), self.op)
        self.before.append(cc.kernel)
        return TensorRef(cc.tensor, None, cc.ws_offset)

    def output(self, out: aclTensor, slot: int, name: str = "out") -> TensorRef:
        """Where the op's kernel should write: ``out`` itself when contiguous, else a
        workspace staging buffer followed by a ViewCopy into ``out``. 161002 if the
        view writes one element twice (a stride-0 dim of size > 1)."""
        if not needs_copy(out) or out.numel == 0:
            return TensorRef(out, slot)
        if has_broadcast(out.view_shape, out.view_strides):
            raise invalid(self.op, f"{name} view {list(out.view_shape)} with strides {list(out.view_strides)} "
                                   "overlaps itself (stride 0)")
        off = self.alloc(out.nbytes)
        self.after.append(prepare_view_copy(self.chip, off, out, slot, self.op))
        return TensorRef(contiguous_meta(out), None, off)

    def kernels(self, main: list[PreparedKernel]) -> list[PreparedKernel]:
        """Launch order: the Contiguous copies, ``main``, the ViewCopies."""
        return self.before + list(main) + self.after
