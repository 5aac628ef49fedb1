"""The contract between operators and the simulator: plain data, no behaviour.

An operator library (``opsnn``) describes a kernel as a :class:`KernelSpec` at prepare
time (phase 1) and hands a :class:`KernelLaunch` (spec + functional body) to the runtime
at execute time (phase 2). ``npu_sim`` times the spec and runs the body; it never
needs to know which operator it is beyond ``KernelSpec.name``, a label.

The tile program mirrors the Ascend C model: a block processes tiles in order; each
tile passes through an ordered list of stages (e.g. CopyIn on MTE2, Compute on
VECTOR, CopyOut on MTE3), each on its own pipe; queues of depth ``buffer_num``
between stages give double buffering (``buffer_num=2``), so tile i+1's copy-in
overlaps tile i's compute.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Callable, Protocol

import numpy as np


class Pipe(str, Enum):
    """AI Core pipes (CANN: PIPE_MTE2, PIPE_MTE1, PIPE_M (Cube), PIPE_FIX, PIPE_V, PIPE_MTE3, PIPE_S)."""

    MTE2 = "MTE2"        #: GM -> L1 / L0A / L0B / UB
    MTE1 = "MTE1"        #: L1 -> L0A / L0B
    CUBE = "CUBE"        #: matrix multiply-accumulate into L0C
    FIXPIPE = "FIXPIPE"  #: L0C -> GM / L1 (with dtype conversion)
    VECTOR = "VECTOR"    #: vector unit on UB
    MTE3 = "MTE3"        #: UB -> GM / L1
    SCALAR = "SCALAR"    #: scalar unit (issue overhead)


class CoreType(str, Enum):
    """Which cores a kernel's blocks occupy: ``block_dim`` counts AICs for Cube
    kernels, AIVs for vector kernels, and groups of one AIC + two AIVs for MIX
    kernels (Ascend C SetBlockDim docs; KERNEL_TYPE_MIX_AIC_1_2)."""

    AIC = "AIC"
    AIV = "AIV"
    MIX = "MIX"


class Buffer(str, Enum):
    """On-chip buffers and their owners: UB on AIV; L1, L0A, L0B, L0C, BT on AIC."""

    UB = "UB"
    L1 = "L1"
    L0A = "L0A"
    L0B = "L0B"
    L0C = "L0C"
    BT = "BT"


class CubeDtype(str, Enum):
    """The operand type the Cube computes in, which sets its MACs per cycle
    (``ChipConfig.cube_macs_per_cycle``). Values are the names :class:`Stage` has
    always used, so ``CubeDtype.HF32 == "hf32"`` and either form works as a
    ``Stage.dtype``. HF32 is fp32 with its mantissa cut to about fp16's width, the
    Cube's fast fp32 mode on Atlas A2 (Ascend C ``SetHF32Mode``: fp32 data in
    L0A/L0B is rounded to HF32 before Mmad). The operator library picks it from the
    input dtype and the aclnn cubeMathType attribute."""

    FLOAT16 = "float16"
    BFLOAT16 = "bfloat16"
    INT8 = "int8"
    FLOAT32 = "float32"
    HF32 = "hf32"


#: pipes whose transfers touch global memory (and so share HBM bandwidth)
GM_PIPES = frozenset({Pipe.MTE2, Pipe.MTE3, Pipe.FIXPIPE})


@dataclass(frozen=True, slots=True)
class GmRange:
    """One operand's share of a GM stage (MTE2 read, MTE3/FIXPIPE write).

    Attributes:
        nbytes: useful bytes of this operand the stage moves.
        run_bytes: length of each contiguous run in GM (e.g. one tile row), bytes;
            each run is rounded up to ``chip.gm_burst_bytes`` on the bus. 0 = one
            contiguous run of ``nbytes``.
        key: identity of the data, for the L2 model (hashable, e.g. ``("B", b, ni,
            k_step)``); None = unknown, always served from HBM. Keys are scoped to one
            kernel launch, and tile ``j`` of a :class:`TileSpec` with ``count > 1``
            reads ``(key, j)``, so one spec can describe distinct K chunks (see
            ``docs/timing.md``, "L2").
    """

    nbytes: int
    run_bytes: int = 0
    key: Any = None


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of one tile on one pipe. Only the fields for that pipe matter.

    Attributes:
        pipe: the pipe that executes the stage.
        nbytes: bytes moved (MTE1/MTE2/MTE3/FIXPIPE).
        macs: multiply-accumulates (CUBE), already padded to the cube's fractal.
        vector_bytes: operand bytes the vector unit streams through (VECTOR), summed
            over every vector instruction the tile issues.
        dtype: the Cube's compute type (CUBE), a :class:`CubeDtype` or its value
            ("float16", "bfloat16", "int8", "float32", "hf32").
        issues: instructions the stage issues (DMA transfers on MTE2/MTE3/FIXPIPE,
            vector instructions on VECTOR); each pays the pipe's fixed cost. 0 =
            derive the least possible: ``tiles * max(1, len(gm_ranges))`` transfers,
            or ``tiles * ceil(repeats per tile / vector_max_repeats)`` vector
            instructions.
        tiles: fine-grained tiles this stage stands for (an "L1 step" that merges
            several K chunks, to keep SimPy event counts low); the Scalar overhead is
            charged per tile.
        gm_ranges: the GM operands of a GM stage with their burst runs and L2 keys;
            bytes of ``nbytes`` not covered are one unkeyed contiguous run.
    """

    pipe: Pipe
    nbytes: int = 0
    macs: int = 0
    vector_bytes: int = 0
    dtype: CubeDtype | str = CubeDtype.FLOAT16
    issues: int = 0
    tiles: int = 1
    gm_ranges: tuple[GmRange, ...] = ()


@dataclass(frozen=True, slots=True)
class TileSpec:
    """``count`` identical tiles, each passing through ``stages`` in order."""

    stages: tuple[Stage, ...]
    count: int = 1


@dataclass(frozen=True, slots=True)
class BlockProgram:
    """What one block (one core) executes: tile groups in order. Every group must use
    the same pipe sequence (a pipe appears at most once per tile)."""

    tiles: tuple[TileSpec, ...]

    @property
    def pipes(self) -> tuple[Pipe, ...]:
        return tuple(s.pipe for s in self.tiles[0].stages) if self.tiles else ()

    @property
    def tile_count(self) -> int:
        return sum(t.count for t in self.tiles)


@dataclass(frozen=True, slots=True)
class MixBlockProgram:
    """One block of a MIX kernel as separate programs: ``aic`` runs on the group's AIC
    and ``aiv[k]`` on its k-th AIV (at most two; fewer leaves AIVs idle), all at once.
    The block ends when all of them end. Cross-core flags (CrossCoreSetFlag /
    WaitFlag) are not modelled: hand data over through GM with keyed ranges (L2)."""

    aic: BlockProgram
    aiv: tuple[BlockProgram, ...] = ()

    @property
    def tile_count(self) -> int:
        return self.aic.tile_count + sum(p.tile_count for p in self.aiv)


@dataclass
class KernelSpec:
    """A prepared kernel: everything timing needs, fixed in phase 1.

    Attributes:
        name: label for traces (the op type, e.g. "MatMul").
        core_type: AIC (Cube), AIV (Vector) or MIX (AIC + 2 AIV groups).
        blocks: one program per block; ``block_dim == len(blocks)``. Blocks may share
            one program object. For AIC/AIV kernels a :class:`BlockProgram`. For MIX
            kernels either a :class:`MixBlockProgram` (separate AIC and AIV programs)
            or a fused :class:`BlockProgram` whose stages span both units: its
            MTE2/MTE1/CUBE/FIXPIPE stages run on the AIC and its VECTOR/MTE3 stages
            on the group's AIVs, which share that work (their throughput terms are
            halved; docs/timing.md).
        buffer_num: queue depth between stages (2 = double buffering).
        buffers: bytes of each on-chip buffer one block uses (all queue slots
            included; for MIX, UB is per AIV); the simulator refuses a spec that
            exceeds the chip.
        tiling_key: the kernel variant chosen by tiling.
        args: further trace arguments (shapes, dtypes, attributes), JSON-able.
        flops: floating-point operations the kernel does (matmul: 2 M N K); 0 = not
            stated. Feeds ``flop_per_s`` and the trace's ``"flops"``.
        gm_bytes: useful GM bytes of the operation (inputs read + outputs written
            once; re-reads not counted), as the op states them; 0 = not stated. The
            trace's ``"bytes"``. (The trace's ``"gm_bytes"`` is what the simulator
            counted its stages moving, re-reads included.)
        tiling_data: the tiling struct (a dataclass shared by the host and kernel
            halves), or a dict of it; the trace's ``"tiling"``.
        strategy: the tiling strategy's name; the trace's ``"strategy"``.

    Ops that still pass these inside ``args`` (keys "flops", "bytes", "tiling",
    "strategy") get them copied into the typed fields at construction; a typed field
    given explicitly wins. Keys written into ``args`` after construction reach the
    trace but not the typed field.
    """

    name: str
    core_type: CoreType
    blocks: tuple[BlockProgram | MixBlockProgram, ...]
    buffer_num: int = 2
    buffers: dict[Buffer, int] = field(default_factory=dict)
    tiling_key: int = 0
    args: dict[str, Any] = field(default_factory=dict)
    flops: int = 0
    gm_bytes: int = 0
    tiling_data: Any = None
    strategy: str = ""

    def __post_init__(self) -> None:
        a = self.args
        if not self.flops and _number(a.get("flops")):
            self.flops = a["flops"]
        if not self.gm_bytes and _number(a.get("bytes")):
            self.gm_bytes = a["bytes"]
        if self.tiling_data is None and a.get("tiling") is not None:
            self.tiling_data = a["tiling"]
        if not self.strategy and isinstance(a.get("strategy"), str):
            self.strategy = a["strategy"]

    @property
    def block_dim(self) -> int:
        return len(self.blocks)


def _number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


class MemoryAccess(Protocol):
    """What a functional body sees: typed, bounds-checked numpy views of device memory."""

    def array(self, addr: int, shape: tuple[int, ...], dtype: Any,
              strides: tuple[int, ...] | None = None, writable: bool = True) -> np.ndarray: ...


#: A functional body: computes the kernel's real numbers, reading and writing device
#: memory through the accessor. Runs once, when the kernel completes in simulated time.
KernelBody = Callable[[MemoryAccess], None]


@dataclass(slots=True)
class KernelLaunch:
    """A spec bound to data: what phase 2 enqueues on a stream. ``body`` may be None
    in timing-only runs. ``gm``: the launch's device byte ranges ``(reads, writes,
    workspace)``, reads/writes lists of ``(addr, nbytes)`` and workspace one pair or
    None, for the L2 kept across kernels (``npu_sim.hardware.l2.GmL2``); None = not
    known (the kernel neither hits nor fills that L2)."""

    spec: KernelSpec
    body: KernelBody | None
    gm: tuple | None = None
