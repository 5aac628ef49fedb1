"""A transformer layer built on an open Session: its buffers, its prepared program,
and the result of one run (latency and per-op breakdown)."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import opsnn
from opsnn.base.dtypes import from_numpy_dtype

from ..errors import PrepareError
from ..profiling import kernel_records, kernels_completed
from ..program import PreparedProgram, download, prepare_call
from .config import TransformerConfig

ND = 2


@dataclass
class OpTime:
    """One layer op in a run: its label, the aclnn entry point, kernels launched,
    summed kernel time (ns, device clock) and FLOPs the kernels declared."""

    label: str
    aclnn: str
    kernels: int
    device_ns: float
    flops: int


@dataclass
class WorkloadResult:
    """A run: ``latency_ns`` between events recorded before the first and after the
    last op (aclrtEventElapsedTime), the per-op breakdown, and outputs (name -> array;
    empty in timing-only sessions)."""

    name: str
    chip: str
    latency_ns: float
    ops: list[OpTime]
    outputs: dict[str, np.ndarray] = field(default_factory=dict)

    def by_kind(self) -> dict[str, float]:
        """Device ns summed by aclnn entry point."""
        out: dict[str, float] = {}
        for o in self.ops:
            out[o.aclnn] = out.get(o.aclnn, 0.0) + o.device_ns
        return out


class LayerWorkload:
    """A layer built on an open :class:`acl_runtime.api.Session`: device buffers,
    prepared ops in order, and host copies of inputs/weights when the session holds
    data (``host``). Build with :func:`encoder_layer` / :func:`decoder_step`."""

    def __init__(self, session, name: str, cfg: TransformerConfig, seed: int = 0):
        self.session = session
        self.name = name
        self.cfg = cfg
        self.dtype = np.dtype(cfg.dtype) if cfg.dtype != "bfloat16" else np.dtype(_bf16())
        self.rng = np.random.default_rng(seed)
        self.backed = not session.timing_only
        self.buffers: dict[str, object] = {}
        self.host: dict[str, np.ndarray] = {}
        self.program = PreparedProgram(name)
        self.outputs: list[str] = []

    @property
    def ops(self):
        """The prepared calls of the layer, in launch order (:class:`frontend.program.PreparedCall`)."""
        return self.program.calls

    # ---- buffers --------------------------------------------------------------------------
    def param(self, name: str, shape, scale: float = 1.0, offset: float = 0.0):
        """A device tensor filled with seeded N(offset, scale^2) values (kept on the host
        for the reference); uninitialised in timing-only sessions."""
        if not self.backed:
            return self.buffer(name, shape)
        arr = (self.rng.standard_normal(shape) * scale + offset).astype(self.dtype)
        self.host[name] = arr
        d = self.session.to_device(arr)
        self.buffers[name] = d
        return d

    def buffer(self, name: str, shape, dtype=None):
        d = self.session.empty(tuple(int(s) for s in shape), np.dtype(dtype or self.dtype))
        self.buffers[name] = d
        return d

    def view(self, name: str, base, shape, strides, offset: int = 0):
        """An aclTensor over ``base``'s memory with element strides/offset."""
        t = opsnn.aclCreateTensor(shape, from_numpy_dtype(base.dtype), list(strides), offset, ND, (base.size,),
                                  base.ptr)
        if t is None:
            raise ValueError(f"{self.name}: view {name!r}: {opsnn.aclGetRecentErrMsg()}")
        return t

    @staticmethod
    def t(x):
        """The aclTensor of a DeviceArray; anything else (a tensor, a number) as is."""
        return x.tensor if hasattr(x, "tensor") else x

    # ---- ops --------------------------------------------------------------------------------
    def op(self, label: str, aclnn: str, *args) -> None:
        """Phase 1 of ``aclnn`` now (``args`` in CANN order; DeviceArrays are passed as
        their tensors); the executor is made repeatable for :meth:`run`. Raises
        ``opsnn.OpError`` if phase 1 fails."""
        from opsnn import OpError
        args = tuple(self.t(a) for a in args)
        try:
            self.program.add(prepare_call(label, "", aclnn, *args))
        except PrepareError as e:
            raise OpError(e.code, f"{self.name} {label}: {e.message}") from None

    def linear(self, label: str, x2d, w, b, out) -> None:
        """out = x2d @ w (+ b): aclnnAddmm with a bias, aclnnMatmul without."""
        if b is None:
            self.op(label, "aclnnMatmul", x2d, w, out, 0)
        else:
            one = opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT)
            self.op(label, "aclnnAddmm", b, x2d, w, one, one, out, 0)

    def add(self, label: str, a, b, out) -> None:
        self.op(label, "aclnnAdd", a, b, opsnn.aclCreateScalar(1.0, opsnn.aclDataType.ACL_FLOAT), out)

    # ---- run --------------------------------------------------------------------------------
    def run(self) -> WorkloadResult:
        """Phase 2 of every op on a new stream (with a new workspace) between two
        events; synchronise; return latency, per-op breakdown and (backed sessions)
        the outputs. Raises :class:`frontend.errors.DeviceError` if a launch or a
        runtime call fails."""
        prog = self.program
        prog.allocate()
        first = kernels_completed()
        latency_ns = prog.launch_timed()
        ops = [OpTime(c.name, c.aclnn, c.kernel_count, sum(r["dur_ns"] for r in recs),
                      sum(int(r.get("flops", 0) or 0) for r in recs))
               for c, recs in zip(prog.calls, prog.split_records(kernel_records(first)))]
        outs = {}
        if self.backed:
            for name in self.outputs:
                b = self.buffers[name]
                outs[name] = download(b.ptr, b.shape, b.dtype)
        return WorkloadResult(self.name, self.session.chip.name, latency_ns, ops, outs)


def _bf16():
    import ml_dtypes
    return ml_dtypes.bfloat16
