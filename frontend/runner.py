"""Run a folded ONNX graph on the simulated device through acl_runtime + opsnn.

``ModelRunner.prepare()`` uploads the weights and runs phase 1 of every op once
(executors made repeatable); ``ModelRunner.run(feeds)`` copies inputs in, runs
phase 2 of every op on one stream between two events, synchronises, and copies
outputs back. Ops on one stream run in order, so all of them share one workspace
buffer sized for the largest (the baseline of DESIGN.md section 7).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

import opsnn
from acl_runtime import constants as C
from acl_runtime.runtime import AclError, runtime
from opsnn.base.dtypes import from_numpy_dtype

from .lowering import DTensor, PreparedCall, lower_node
from .onnx_import import Graph, UnsupportedModelError


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
    """Prepare once, run many. Requires ACL initialised with device 0 set."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.rt = runtime()
        self.values: dict[str, DTensor] = {}
        self.calls: list[PreparedCall] = []
        self.workspace = 0
        self.workspace_size = 0
        self.stream = None
        self._prepared = False
        self.weight_bytes = 0

    # ---- LoweringContext ------------------------------------------------------------
    def _tensor(self, ptr, shape, dtype, strides=None):
        t = opsnn.aclCreateTensor(shape, from_numpy_dtype(dtype), strides, 0, 2,
                                  shape if strides is None else (int(np.prod(shape, dtype=np.int64)),), ptr)
        if t is None:
            raise UnsupportedModelError(opsnn.aclGetRecentErrMsg())
        return t

    def alloc(self, name, shape, dtype) -> DTensor:
        shape = tuple(int(d) for d in shape)
        dtype = np.dtype(dtype)
        nbytes = max(int(np.prod(shape, dtype=np.int64)) * dtype.itemsize, 1)
        ptr = self.rt.malloc(nbytes)
        d = DTensor(name, ptr, shape, dtype, self._tensor(ptr, shape, dtype))
        self.values[name] = d
        return d

    def view(self, src: DTensor, name, shape, strides=None) -> DTensor:
        shape = tuple(int(d) for d in shape)
        if strides is None and int(np.prod(shape, dtype=np.int64)) != int(np.prod(src.shape, dtype=np.int64)):
            raise UnsupportedModelError(f"view {name!r}: cannot view {list(src.shape)} as {list(shape)}")
        d = DTensor(name, src.ptr, shape, src.dtype, self._tensor(src.ptr, shape, src.dtype, strides))
        self.values[name] = d
        return d

    def upload(self, name, arr: np.ndarray) -> DTensor:
        arr = np.asarray(arr, order="C")  # not ascontiguousarray: it turns a 0-d array into 1-d
        d = self.alloc(name, arr.shape, arr.dtype)
        if arr.nbytes:
            self.rt.memcpy(d.ptr, arr.nbytes, self.rt.register_host(arr), arr.nbytes, C.ACL_MEMCPY_HOST_TO_DEVICE)
        self.weight_bytes += arr.nbytes
        return d

    def const(self, name):
        return self.graph.constants.get(name)

    # ---- prepare / run -------------------------------------------------------------------
    def prepare(self, progress: Callable[[int, int], None] | None = None) -> None:
        """Upload constants and run phase 1 for every node. Raises
        UnsupportedModelError (unsupported op, failed phase 1) naming the node."""
        g = self.graph
        for name, (shape, dtype) in g.inputs.items():
            if any(d < 0 for d in shape):
                raise UnsupportedModelError(f"input {name!r} has a dynamic shape {list(shape)}; "
                                            "feed a static-shaped model")
            self.alloc(name, shape, dtype)
        needed = {i for n in g.nodes for i in n.inputs if i}
        for name in needed:
            if name in g.constants and name not in self.values:
                self.upload(name, g.constants[name])
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
            self.calls.extend(calls)
            if progress:
                progress(i + 1, len(g.nodes))
        self.workspace_size = max((c.workspace_size for c in self.calls), default=0)
        if self.workspace_size:
            self.workspace = self.rt.malloc(self.workspace_size)
        self.stream = self.rt.create_stream()
        for name in g.outputs:
            if name not in self.values:
                raise UnsupportedModelError(f"graph output {name!r} is never produced")
        self.rt.synchronize_device()
        self._prepared = True

    def run(self, feeds: dict[str, np.ndarray], progress: Callable[[int, int], None] | None = None) -> RunResult:
        """Copy ``feeds`` in, run every prepared op, return outputs and timings.
        Raises ValueError for a missing or mis-shaped input, AclError on device failure."""
        assert self._prepared, "call prepare() first"
        t0 = time.perf_counter()
        rt = self.rt
        for name, (shape, dtype) in self.graph.inputs.items():
            if name not in feeds:
                raise ValueError(f"missing input {name!r} (shape {list(shape)}, {dtype})")
            arr = np.asarray(np.asarray(feeds[name]).astype(dtype, copy=False), order="C")
            if arr.shape != tuple(shape):
                raise ValueError(f"input {name!r} has shape {list(arr.shape)}, the model wants {list(shape)}")
            rt.memcpy(self.values[name].ptr, arr.nbytes, rt.register_host(arr), arr.nbytes,
                      C.ACL_MEMCPY_HOST_TO_DEVICE, self.stream, sync=False)
        start, end = rt.create_event(), rt.create_event()
        rt.record_event(start, self.stream)
        for c in self.calls:
            ret = c.launch(self.workspace, self.workspace_size, c.executor, self.stream)
            if ret != 0:
                raise AclError(ret, f"{c.aclnn} for node {c.node!r}: {opsnn.aclGetRecentErrMsg()}")
        rt.record_event(end, self.stream)
        total = len(self.calls)
        done0 = rt.kernels_completed()
        rt.synchronize_stream(self.stream, (lambda k: progress(k - done0, total)) if progress else None)
        if progress:
            progress(total, total)
        device_ns = rt.event_elapsed_time(start, end) * 1e6
        outs = {}
        for name in self.graph.outputs:
            d = self.values[name]
            host = np.empty(d.shape, d.dtype)
            if host.nbytes:
                rt.memcpy(rt.register_host(host), host.nbytes, d.ptr, host.nbytes, C.ACL_MEMCPY_DEVICE_TO_HOST,
                          self.stream, sync=True)
            outs[name] = host
        return RunResult(outs, device_ns, time.perf_counter() - t0, total)

