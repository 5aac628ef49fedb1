"""The shared l0 ops ``Contiguous`` and ``ViewCopy``: how an operator accepts
non-contiguous views (strides, offset) the way CANN's aclnn layer does.

An ops-nn ``aclnnXxxGetWorkspaceSize`` calls ``l0op::Contiguous(x)`` on every input
(a no-op for a contiguous view), runs its l0 kernel on the contiguous copies, and
ends with ``l0op::ViewCopy(result, out)`` to write into the caller's ``out`` view.
The copies live in the op's workspace, which phase 1 sizes and phase 2 receives.
Here phase 1 does the same with :class:`WorkspacePlan`::

    plan = WorkspacePlan(chip, op)
    x_ref = plan.input(x, slot=0)        # TensorRef: x itself, or a copy in workspace
    out_ref = plan.output(out, slot=1)   # out itself, or a workspace staging buffer
    main = PreparedKernel(spec, make_body)   # reads x_ref.addr(addrs, ws), writes out_ref.addr(addrs, ws)
    return aclOpExecutor(name, plan.kernels([main]), [x], [out], plan.size)

``slot`` is the tensor's index in the executor's slot list (inputs first, then
outputs), the same index ``make_body(addrs, ws)`` sees in ``addrs``. Each copy is its
own vector kernel (label ``Contiguous`` before the op, ``ViewCopy`` after it),
timed like any other. :func:`prepare_contiguous` and :func:`prepare_view_copy` are
the single-tensor building blocks, for ops that place their own workspace.

Copy cost (one kernel, tiled by :func:`~opsnn.base.tiling.vector_kernel`, one unit per
element). The view's dims are collapsed first: size-1 and stride-0 dims dropped
(a stride-0 dim is a broadcast, read once and repeated by the Vector unit), and
adjacent dims merged where ``stride[i] == stride[i+1] * size[i+1]``. With ``n`` and
``s`` the size and stride of the innermost collapsed dim, ``runs`` the number of
times it repeats, ``e`` the item size and ``B`` = :data:`DMA_BLOCK_BYTES`:

* gather (MTE2, GM -> UB): ``runs * min(n * align(e, B), align(((n-1)*s + 1) * e, B))``
  bytes: each run is either fetched element by element, one data block each, or
  as the covering span with the gaps discarded, whichever moves fewer blocks. A
  contiguous run (``s == 1``) costs ``align(n*e, B)``; a transpose (inner stride
  >= B / e) costs one whole block per element.
* scatter (MTE3, UB -> GM, ``ViewCopy``): ``runs * align(n*e, B)`` if ``s == 1`` else
  ``runs * n * align(e, B)`` (a write cannot cover the gaps).
* the contiguous side moves ``numel * e`` bytes; the Vector unit streams
  ``numel * e`` bytes when a broadcast (stride-0) dim is expanded, else nothing.

DMA moves whole 32-byte data blocks (Ascend C ``DataCopy`` counts ``blockLen`` in
32 B units); that granule is the only hardware figure here. Treating the per-run
cost as a byte count on the MTE2/MTE3 pipe (so HBM bandwidth and the DMA latency
apply per tile, not per run) is an assumption.
"""
from __future__ import annotations

from dataclasses import dataclass

from npu_sim import ChipConfig

from ..base.checks import invalid
from ..base.executor import PreparedKernel
from ..base.memview import tensor_view
from ..base.tensor import aclTensor, contiguous_strides
from ..base.tiling import align_up, vector_kernel

#: GM <-> UB DMA granule in bytes (Ascend C DataCopy: blockLen in 32 B data blocks)
DMA_BLOCK_BYTES = 32
#: alignment of each buffer placed in an op's workspace (device addresses are 32 B aligned)
WS_ALIGN_BYTES = 32


def needs_copy(t: aclTensor) -> bool:
    """True if ``t``'s view is not row-major contiguous (size-1 dims ignored). A
    contiguous view at an element offset needs no copy."""
    want = contiguous_strides(t.view_shape)
    return any(d != 1 and s != w for d, s, w in zip(t.view_shape, t.view_strides, want))


def collapse_view(shape, strides) -> list[tuple[int, int]]:
    """``[(size, stride), ...]`` outermost first, size-1 and stride-0 dims dropped and
    mergeable neighbours merged (module docstring)."""
    dims = [(int(d), int(s)) for d, s in zip(shape, strides) if d != 1 and s != 0]
    out: list[tuple[int, int]] = []
    for d, s in dims:
        if out and out[-1][1] == s * d:
            out[-1] = (out[-1][0] * d, s)
        else:
            out.append((d, s))
    return out


def _inner_runs(t: aclTensor) -> tuple[int, int, int]:
    dims = collapse_view(t.view_shape, t.view_strides)
    if not dims:
        return 1, 1, 1
    n, s = dims[-1]
    runs = 1
    for d, _ in dims[:-1]:
        runs *= d
    return runs, n, s


def gather_bytes(t: aclTensor) -> int:
    """MTE2 bytes to read view ``t`` into UB contiguously (module docstring formula)."""
    runs, n, s = _inner_runs(t)
    e, b = t.itemsize, DMA_BLOCK_BYTES
    per_run = min(n * align_up(e, b), align_up(((n - 1) * s + 1) * e, b))
    return runs * per_run


def scatter_bytes(t: aclTensor) -> int:
    """MTE3 bytes to write a contiguous UB buffer into view ``t`` (module docstring)."""
    runs, n, s = _inner_runs(t)
    e, b = t.itemsize, DMA_BLOCK_BYTES
    return runs * (align_up(n * e, b) if s == 1 else n * align_up(e, b))


def _has_broadcast(t: aclTensor) -> bool:
    return any(d > 1 and s == 0 for d, s in zip(t.view_shape, t.view_strides))


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


def _copy_spec(chip: ChipConfig, label: str, t: aclTensor, mte2_bytes: int, mte3_bytes: int, op: str):
    n = t.numel
    vec = t.itemsize if _has_broadcast(t) else 0
    spec, _ = vector_kernel(chip, label, n, mte2_bytes / n, mte3_bytes / n, vec,
                            args={"op": op, "shapes": [list(t.view_shape)], "dtype": t.dtype_name,
                                  "strides": list(t.view_strides), "offset": t.view_offset,
                                  "bytes": int(mte2_bytes + mte3_bytes)})
    return spec


def prepare_contiguous(chip: ChipConfig, t: aclTensor, slot: int, ws_offset: int, op: str = "") -> ContiguousCopy:
    """Phase 1 of ``l0op::Contiguous``: copy the view in executor slot ``slot`` into a
    row-major buffer at ``ws_offset`` bytes into the workspace. Needs ``t.numel > 0``."""
    meta = contiguous_meta(t)
    spec = _copy_spec(chip, "Contiguous", t, gather_bytes(t), t.nbytes, op)
    shape, dtype = t.view_shape, t.np_dtype

    def make_body(addrs, ws):
        src, dst = addrs[slot], ws + ws_offset

        def body(mem):
            mem.array(dst, shape, dtype)[...] = tensor_view(mem, src, t)
        return body

    return ContiguousCopy(PreparedKernel(spec, make_body), align_up(t.nbytes, WS_ALIGN_BYTES), meta, ws_offset)


def prepare_view_copy(chip: ChipConfig, ws_offset: int, out: aclTensor, slot: int, op: str = "") -> PreparedKernel:
    """Phase 1 of ``l0op::ViewCopy``: copy the row-major result at ``ws_offset`` bytes
    into the workspace to the (non-contiguous) ``out`` view in executor slot ``slot``."""
    spec = _copy_spec(chip, "ViewCopy", out, out.nbytes, scatter_bytes(out), op)
    shape, dtype = out.view_shape, out.np_dtype

    def make_body(addrs, ws):
        src, dst = ws + ws_offset, addrs[slot]

        def body(mem):
            tensor_view(mem, dst, out)[...] = mem.array(src, shape, dtype)
        return body

    return PreparedKernel(spec, make_body)


class WorkspacePlan:
    """Phase-1 bookkeeping of an op's workspace and its copy kernels (module docstring).

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
        if _has_broadcast(out):
            raise invalid(self.op, f"{name} view {list(out.view_shape)} with strides {list(out.view_strides)} "
                                   "overlaps itself (stride 0)")
        off = self.alloc(out.nbytes)
        self.after.append(prepare_view_copy(self.chip, off, out, slot, self.op))
        return TensorRef(contiguous_meta(out), None, off)

    def kernels(self, main: list[PreparedKernel]) -> list[PreparedKernel]:
        return self.before + list(main) + self.after
