"""Run a folded ONNX graph on the simulated device through the ACL binding + opsnn.

``ModelRunner.prepare()`` uploads the weights and runs phase 1 of every op once
(executors made repeatable), collecting the calls into one
:class:`~frontend.program.PreparedProgram`; ``ModelRunner.run(feeds)`` copies
inputs in, runs the program between two events on its stream, synchronises, and
copies outputs back. Ops on one stream run in order, so all of them share one
workspace buffer sized for the largest (the baseline of DESIGN.md section 7).
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import opsnn
from acl_runtime import acl
from npu_sim.host_gc import with_gc_paused
from opsnn.base.dtypes import from_numpy_dtype

from . import memory as _memory
from .errors import UnsupportedModelError
from .graph import Graph
from .lowering import DTensor, lower_node
from .meta_const import MetaConstantError, is_placeholder, placeholder
from .program import PreparedCall, PreparedProgram, check, download, malloc, upload


def _zero_pages(nbytes: int) -> np.ndarray:
    """A read-only uint8 array of ``nbytes`` zeros that holds no memory: a private
    read-only anonymous mapping (the kernel maps every page to its one zero page and
    charges none of it to the commit limit, so a 60 GiB input works on a 23 GiB host,
    where ``np.zeros`` of that size is refused). ``np.zeros`` where mmap has no PROT_READ
    (Windows)."""
    import mmap
    if not hasattr(mmap, "PROT_READ") or nbytes <= 0:
        return np.zeros(max(nbytes, 1), np.uint8)
    m = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS, prot=mmap.PROT_READ)
    return np.frombuffer(m, np.uint8)


@dataclass
class RunResult:
    """Outputs (name -> array) and timing: simulated ns between the start and end
    events around the ops, and real seconds spent."""

    outputs: dict[str, np.ndarray]
    device_ns: float
    wall_s: float
    calls: int
    stats: dict = field(default_factory=dict)


class ModelRunner:
    """Prepare once, run many. Requires ACL initialised with device 0 set
    (``acl.init()``, ``acl.rt.set_device(0)``).

    ``mode``: "eager" (one aclnn kernel per node, the default here) or "graph" (the
    :mod:`frontend.passes` rewrites first, minus ``disable_passes``; ``npu-sim run``'s
    default). ``self.graph`` is the graph lowered, ``self.passes`` the rewrites made.
    ``memory``: "naive" (one buffer per intermediate, the default here), "caching" or
    "planned" (one arena; :mod:`frontend.memory`); ``poison`` fills each buffer after
    its last use (tests). Raises ValueError for an unknown mode, pass or policy."""

    @with_gc_paused   # the graph passes (npu_sim/host_gc.py: the collector paused in object-heavy phases)
    def __init__(self, graph: Graph, mode: str = "eager", disable_passes=(), memory: str = "naive",
                 poison: bool = False):
        if memory not in _memory.POLICIES:
            raise ValueError(f"memory policy must be one of {', '.join(_memory.POLICIES)}, got {memory!r}")
        from .passes import apply_passes
        self.mode = mode
        self.source_graph = graph
        graph, self.passes = apply_passes(graph, mode, disable_passes)
        self.graph = graph
        self.values: dict[str, DTensor] = {}
        self.program = PreparedProgram()
        self._prepared = False
        self.weight_bytes = 0
        self.memory = memory              #: frontend.memory policy for intermediates and workspaces
        self.blocks = _memory.DeferredMemory()
        self._lowering = False            # alloc() during lowering = an intermediate (placed by the policy)
        self._report = None
        self.poison = poison              #: fill each planned buffer with 0xFF when its lifetime ends
        self._zero_host = None            # host side of metadata-only uploads (timing-only)

    @property
    def calls(self) -> list[PreparedCall]:
        """The prepared aclnn calls, in launch order."""
        return self.program.calls

    # ---- LoweringContext ------------------------------------------------------------
    def _tensor(self, ptr, shape, dtype, strides=None):
        t = opsnn.aclCreateTensor(shape, from_numpy_dtype(dtype), strides, 0, 2,
                                  shape if strides is None else (math.prod(shape),), ptr)
        if t is None:
            raise UnsupportedModelError(opsnn.aclGetRecentErrMsg())
        return t

    def alloc(self, name, shape, dtype) -> DTensor:
        shape = tuple(map(int, shape))
        dtype = np.dtype(dtype)
        nbytes = max(math.prod(shape) * dtype.itemsize, 1)   # Python ints (np.prod costs ~2.5 us a call)
        if self._lowering and self.memory != "naive":
            ptr = self.blocks.alloc(nbytes)
        else:
            ptr = malloc(nbytes)
            if self._lowering:
                self.blocks.add(ptr, nbytes)
        d = DTensor(name, ptr, shape, dtype, self._tensor(ptr, shape, dtype))
        self.values[name] = d
        return d

    def view(self, src: DTensor, name, shape, strides=None) -> DTensor:
        shape = tuple(int(d) for d in shape)
        if strides is None and math.prod(shape) != math.prod(src.shape):
            raise UnsupportedModelError(f"view {name!r}: cannot view {list(src.shape)} as {list(shape)}")
        d = DTensor(name, src.ptr, shape, src.dtype, self._tensor(src.ptr, shape, src.dtype, strides))
        self.values[name] = d
        return d

    def upload(self, name, arr: np.ndarray) -> DTensor:
        """Allocate ``name`` and copy ``arr`` into it. A metadata-only placeholder
        (:mod:`frontend.meta_const`) copies nothing on a timing-only device: the memcpy is
        timed from its byte count, its host side a view of one zeroed buffer that is
        never touched (no resident pages). Raises MetaConstantError for a placeholder
        on a device that holds data."""
        meta = is_placeholder(arr)
        if not meta:
            arr = np.asarray(arr, order="C")  # not ascontiguousarray: it turns a 0-d array into 1-d
        lowering, self._lowering = self._lowering, False   # uploaded data needs real memory now
        d = self.alloc(name, arr.shape, arr.dtype)
        self._lowering = lowering
        upload(d.ptr, self._meta_host(name, arr) if meta else arr, constant=not meta)
        self.weight_bytes += arr.nbytes
        return d

    def _meta_host(self, name: str, arr: np.ndarray, what: str = "constant") -> np.ndarray:
        """A C-contiguous host array of ``arr``'s shape and dtype viewing one shared
        zero buffer that is never written (:func:`_zero_pages`: no resident pages, any
        size), for a placeholder's timed upload. Raises MetaConstantError on a device
        that holds data (``what`` names the value: "constant" or "input")."""
        from .profiling import device_holds_data
        if device_holds_data():
            raise MetaConstantError(f"{what} {name!r} is metadata only (a graph loaded or fed for timing-only "
                                    "runs): it cannot be uploaded to a device that holds data")
        if self._zero_host is None or self._zero_host.nbytes < arr.nbytes:
            self._zero_host = _zero_pages(arr.nbytes)
        return self._zero_host[:arr.nbytes].view(arr.dtype).reshape(arr.shape)

    def const(self, name):
        """The host value of constant ``name`` (None if it is not one), for a lowering
        that reads it. Raises MetaConstantError for a metadata-only placeholder rather
        than handing out its zeros (``load_onnx`` keeps value-read constants real)."""
        v = self.graph.constants.get(name)
        if v is not None and is_placeholder(v):
            raise MetaConstantError(f"constant {name!r} is metadata only (timing-only load) but a lowering "
                                    "reads its values; load the model without timing_only")
        return v

    # ---- prepare / run -------------------------------------------------------------------
    @with_gc_paused
    def prepare(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Upload the constants the nodes read (in order of first use, so the upload spans
        do not depend on PYTHONHASHSEED) and run phase 1 for every node. Raises
        UnsupportedModelError (unsupported op, failed phase 1) naming the node,
        DeviceError when device memory runs out."""
        g = self.graph
        for name, (shape, dtype) in g.inputs.items():
            if any(d < 0 for d in shape):
                raise UnsupportedModelError(f"input {name!r} has a dynamic shape {list(shape)}; "
                                            "feed a static-shaped model")
            self.alloc(name, shape, dtype)
        for node in g.nodes:   # weights in order of first use (deterministic upload spans)
            for name in node.inputs:
                if name and name in g.constants and name not in self.values:
                    self.upload(name, g.constants[name])
        self._lowering = True
        for i, node in enumerate(g.nodes):
            ins = []
            for name in node.inputs:
                if not name:
                    ins.append(None)
                    continue
                if name not in self.values:
                    raise UnsupportedModelError(f"{node.op_type} node {node.name!r}: input {name!r} is undefined")
                ins.append(self.values[name])
            outs, calls = lower_node(self, node, ins, g.opset)
            for o, name in zip(outs, node.outputs):
                self.values[name] = o
            self.program.add(*calls)
            if progress:
                progress(i + 1, len(g.nodes))
        self._lowering = False
        for name in g.outputs:
            if name not in self.values:
                raise UnsupportedModelError(f"graph output {name!r} is never produced")
        if self.memory != "naive":
            ws, self._report, poison = _memory.place(self.calls, self.values, self.blocks, self._keep(),
                                                     self.memory, malloc)
            self.program.call_workspaces = ws
            if self.poison:
                self.program.set_poison(poison, malloc)
        self.program.allocate()
        check(acl.rt.synchronize_device(), "acl.rt.synchronize_device")
        self._prepared = True

    def _keep(self) -> set:
        return {b for name in self.graph.outputs if (b := self.blocks.owner(self.values[name].ptr)) is not None}

    def memory_report(self) -> "_memory.MemoryReport":
        """Bytes of intermediates + workspaces under naive, caching and planned, and the
        lower bound (frontend.memory); after prepare()."""
        assert self._prepared, "call prepare() first"
        if self._report is None:
            self._report = _memory.plan(_memory.lifetimes(self.calls, self.blocks, self._keep()), "planned")[2]
            self._report.policy = self.memory
        return self._report

    @with_gc_paused
    def run(self, feeds: dict[str, np.ndarray], progress: Callable[[int, int], None] | None = None) -> RunResult:
        """Copy ``feeds`` in, run every prepared op, return outputs and timings.
        Raises ValueError for a missing or mis-shaped input, DeviceError on device failure."""
        assert self._prepared, "call prepare() first"
        t0 = time.perf_counter()
        prog = self.program
        for name, (shape, dtype) in self.graph.inputs.items():
            if name not in feeds:
                raise ValueError(f"missing input {name!r} (shape {list(shape)}, {dtype})")
            feed = feeds[name]
            if is_placeholder(feed):   # metadata only (timing-only feeds): no host bytes, the copy timed alike
                if feed.shape != tuple(shape):
                    raise ValueError(f"input {name!r} has shape {list(feed.shape)}, the model wants {list(shape)}")
                arr = self._meta_host(name, placeholder(shape, dtype), "input")
            else:
                arr = np.asarray(np.asarray(feed).astype(dtype, copy=False), order="C")
                if arr.shape != tuple(shape):
                    raise ValueError(f"input {name!r} has shape {list(arr.shape)}, the model wants {list(shape)}")
            upload(self.values[name].ptr, arr, prog.stream)
        device_ns = prog.launch_timed(progress)
        outs = {}
        for name in self.graph.outputs:
            d = self.values[name]
            outs[name] = download(d.ptr, d.shape, d.dtype)
        return RunResult(outs, device_ns, time.perf_counter() - t0, len(prog.calls))
