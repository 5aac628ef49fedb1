"""The simulated host clock and its cost model (ns).

Every runtime or aclnn call advances the host clock by a cost from this module,
and the device cannot start a task before the host has enqueued it, so a host that
spends longer per op than the device needs leaves the device idle (the trace's
idle gaps marked host-bound, ``traces.analysis.idle_gaps``).

Sources. CANN documents the calls (aclnn two-phase API, aclrtLaunchKernel: "delivers
a task rather than executes" it) but publishes no per-call host times, so every
figure below stays an assumption [A], checked only against the public end-to-end
figures we found:

* [GG] github.com/hipudding/llama.cpp issue 2 (the CANN backend's TODO list):
  ``test-backend-ops`` perf mode on CANN, ACC f32 1024x577 in 12.37 us per run,
  end to end with the aclnn calls of one small op on a stream that stays
  host-bound; its device part (6.9 MB at about 1.4 TB/s) is about 5 us. So one
  small aclnn op costs the host at most about 12 us on a fast host: here a phase 1
  answered by the executor cache plus one launch is 1.5 + 4 = 5.5 us, a phase 1
  that builds an executor (one vector kernel) 10 + 3 + 4 = 17 us, of that order.
* [CD] github.com/candle-org/candle pull requests 164 and 166 (a Python framework
  over aclnn via ctypes, on 910B3): the aclnn part of a 64x64 fp32 add measured
  71 us median and the framework dispatch above it 155-171 us. Those are a
  Python-level path, an upper bound for a C++ framework; they set no figure here.
* [PT] github.com/pytorch/pytorch issue 82793: about 4 us of PyTorch dispatch per
  op (on CUDA), the floor of a framework's own per-op cost before its backend.
* [FA] github.com/zouzias/pto-isa-mirror, demos/torch_jit/flash/README.md (910B,
  torch_npu, averages of 200 calls after 50 warm-ups): for the small shapes (Sq 128-
  1024, Skv 1024-2048) the times are flat in size, so host-bound: the unfused
  attention (about four torch_npu ops: matmul, scale, softmax, matmul) 44-72 us per
  call, 11-18 us per op end to end, and one fused npu_fused_infer_attention_score
  67-80 us. With the "torch_npu" profile a cached op costs 10 + 1.5 + 4 = 15.5 us
  of host time here, inside that 11-18 us range; without it 5.5 us.

Why no better figure: the host cost depends on the host CPU, the CANN version and
the op (tiling searches differ); CANN's profiling guide reports host API times per
run (msprof ``api_statistic``) but publishes none as reference values.

Framework overhead (torch_npu's dispatch before aclnn: the aten dispatcher, its
OpCommand / task queue) is a separate optional profile, :data:`FRAMEWORK_PROFILES`,
off by default: :func:`set_framework_profile` (or ``NPU_SIM_FRAMEWORK_PROFILE`` in
the environment at import) adds its per-op cost to every phase 1, as torch_npu calls
``aclnnXxxGetWorkspaceSize`` once per op call.

The aclnn two-phase model:

* phase 1, executor built (cache off or miss)::

      prepare_cost_ns = aclnn_prepare                              (checks, infershape, executor)
                      + sum over kernels of TILING_NS[core type]   (one tiling run per kernel)
                      + TILING_CANDIDATE_NS * tiling_candidates    (strategies asked before the one that
                                                                    tiled: opsnn's Phase1Report.extra_candidates)

* phase 1, executor-cache hit: ``aclnn_cache_hit``;
* phase 2: ``aclnn_launch`` per kernel (each kernel is one stream task); an
  executor with no kernels (empty tensors) costs nothing.
"""
from __future__ import annotations

import os
from typing import Iterable

#: host cost of each API, ns [A] (module docstring: [GG] bounds aclnn_cache_hit/aclnn_prepare + aclnn_launch)
HOST_COST_NS = {
    "malloc": 1000.0,
    "free": 500.0,
    "memcpy": 1000.0,          # enqueue cost; the copy itself is timed on the device
    "memcpy_async": 1000.0,
    "create_stream": 2000.0,
    "create_event": 500.0,
    "record_event": 500.0,
    "stream_wait_event": 500.0,
    "synchronize": 1000.0,
    "aclnn_prepare": 10000.0,  # phase 1 base: validate, infer shape, create the executor
    "aclnn_cache_hit": 1500.0,  # phase 1 answered by the executor cache: hash the arguments, look up, bind
    "aclnn_launch": 4000.0,    # phase 2, per kernel: bind addresses, launch one stream task
}

#: phase-1 tiling cost per kernel by core type, ns [A]: a vector kernel splits one
#: dimension over cores and UB; a cube kernel also picks base_m/base_n/base_k and L1 depth
TILING_NS = {"AIV": 3000.0, "AIC": 8000.0}
#: phase-1 cost of each tiling strategy asked (and found not capable) before the one
#: that tiled, ns [A]
TILING_CANDIDATE_NS = 1000.0


#: optional framework overhead per op call, ns, added to each phase 1 [A]: "torch_npu" is
#: sized so a cached op's host time (10 + 1.5 + 4 us) falls in [FA]'s 11-18 us per
#: host-bound torch_npu op, above [PT]'s 4 us dispatch floor (no direct torch_npu
#: dispatch figure found; [CD]'s 155-171 us is a Python framework's).
FRAMEWORK_PROFILES = {"none": 0.0, "torch_npu": 10000.0}
#: the phase-1 entries before any framework profile
_BASE = {k: HOST_COST_NS[k] for k in ("aclnn_prepare", "aclnn_cache_hit")}
_profile = ["none"]


def set_framework_profile(name: str = "none") -> None:
    """Charge the framework profile ``name`` (a key of :data:`FRAMEWORK_PROFILES`) on every
    phase 1 from now on ("none", the default, charges nothing). Raises ValueError for an
    unknown name. Plans prepared before the call keep their priced phase 1."""
    if name not in FRAMEWORK_PROFILES:
        raise ValueError(f"unknown framework profile {name!r}; known: {', '.join(FRAMEWORK_PROFILES)}")
    extra = FRAMEWORK_PROFILES[name]
    for k, v in _BASE.items():
        HOST_COST_NS[k] = v + extra
    _profile[0] = name


def framework_profile() -> str:
    """The framework profile in use ("none" by default)."""
    return _profile[0]


def prepare_cost_ns(core_types: Iterable[str], tiling_candidates: int = 0) -> float:
    """Simulated host cost (ns) of a phase 1 that builds an executor with kernels on
    ``core_types`` ("AIC"/"AIV", one entry per kernel) after asking
    ``tiling_candidates`` strategies that could not tile it (module docstring formula)."""
    return (HOST_COST_NS["aclnn_prepare"] + sum(TILING_NS.get(str(c), TILING_NS["AIV"]) for c in core_types)
            + TILING_CANDIDATE_NS * max(int(tiling_candidates), 0))


class HostClock:
    """Host time in ns. ``advance`` charges a call; ``advance_ns`` charges an explicit
    duration; ``catch_up`` jumps to the device time after a synchronization."""

    __slots__ = ("now_ns",)

    def __init__(self) -> None:
        self.now_ns = 0.0

    def advance(self, what: str) -> tuple[float, float]:
        """Charge ``what`` (a key of HOST_COST_NS); returns (start, duration) ns."""
        return self.advance_ns(HOST_COST_NS[what])

    def advance_ns(self, dur_ns: float) -> tuple[float, float]:
        """Charge ``dur_ns`` ns; returns (start, duration) ns."""
        start = self.now_ns
        self.now_ns = start + dur_ns
        return start, dur_ns

    def catch_up(self, device_now_ns: float) -> None:
        if device_now_ns > self.now_ns:
            self.now_ns = device_now_ns


def _profile_from_env() -> None:
    name = os.environ.get("NPU_SIM_FRAMEWORK_PROFILE", "") or "none"
    if name not in FRAMEWORK_PROFILES:   # a bad environment value must not stop the import
        import warnings
        warnings.warn(f"NPU_SIM_FRAMEWORK_PROFILE={name!r} is not one of {', '.join(FRAMEWORK_PROFILES)}; "
                      "using 'none'", stacklevel=2)
        name = "none"
    set_framework_profile(name)


_profile_from_env()
