"""``ChipConfig``: every hardware figure the simulator uses, with its unit in its name.

Units: bytes, Hz, ns, and bandwidths in bytes per ns (numerically equal to GB/s).
Each preset module documents where each figure comes from (``../shared/DESIGN.md``
section 4 collects the sources: the CANN platform config files, the Ascend C docs,
or "assumption" where no public figure exists).

Validation beyond "positive": every float must be finite, every alignment
(``ub_align_bytes``, ``l1_align_bytes``, ``l0ab_align_bytes``, ``l0c_align_bytes``,
``malloc_align_bytes``, ``malloc_round_bytes``) a positive power of two, and
``malloc_align_bytes`` at least 32 (aclCreateTensor needs 32 B aligned addresses).
Sanity bounds [A] -- not hardware facts; wide enough for any real chip, narrow enough
that a typo (a clock of 1e-300 Hz, a bandwidth of 1e300 GB/s, a billion cores) fails
at load, naming the field, instead of as a hang or a division by zero much later.
:data:`BOUNDS` lists them (inclusive):

==============================================  ==========================================
fields                                          bounds
==============================================  ==========================================
``clock_hz``                                    1e6 .. 1e11 Hz (1 MHz .. 100 GHz)
``l2_bandwidth_bytes_per_ns``,                  1e-3 .. 1e6 bytes/ns (1 MB/s .. 1 PB/s)
``hbm_bandwidth_bytes_per_ns``,
``host_link_bandwidth_bytes_per_ns``
``dma_latency_ns``, ``host_link_latency_ns``,   0 .. 1e9 ns (1 s)
``kernel_launch_ns``, ``block_dispatch_ns``,
``vector_issue_ns``, ``scalar_ns_per_tile``
``aic_count``, ``aiv_count``                    .. 4096 cores (each is a simulated object)
``hbm_bytes``, ``l2_bytes``                     .. 2**42 bytes (4 TiB; device address spaces
                                                are 2**44 apart, see npu_sim.device_memory)
``ub_bytes``, ``l1_bytes``, ``l0a_bytes``,      .. 2**30 bytes (1 GiB)
``l0b_bytes``, ``l0c_bytes``,
``bias_table_bytes``
per-cycle rates (``*_per_cycle``)               .. 2**24
``vector_repeat_bytes``, ``gm_burst_bytes``     .. 2**20 bytes
``vector_max_repeats``                          .. 65535
``vector_clock_hz``                             0 .. 1e11 Hz (0 = ``clock_hz``)
``hbm_efficiency``, ``cube_efficiency``,        (0, 16] (1 = the documented formulas)
``vector_efficiency``
==============================================  ==========================================
"""
from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


#: sanity bounds [A] (see the module docstring): clock, bandwidth, latency, sizes
CLOCK_HZ = dict(ge=1e6, le=1e11)
BANDWIDTH = dict(ge=1e-3, le=1e6)
LATENCY_NS = dict(ge=0, le=1e9)
MAX_CORES = 4096
MAX_MEMORY_BYTES = 2 ** 42
MAX_BUFFER_BYTES = 2 ** 30
MAX_PER_CYCLE = 2 ** 24
MAX_GRANULE_BYTES = 2 ** 20

ALIGN_FIELDS = ("ub_align_bytes", "l1_align_bytes", "l0ab_align_bytes", "l0c_align_bytes", "malloc_align_bytes",
                "malloc_round_bytes")


class Architecture(str, Enum):
    """How Cube and Vector units are packaged.

    SEPARATED: Ascend 910B style. Each AI Core is one AIC (Cube) plus two AIV
    (Vector) cores that talk only through GM. COUPLED: Ascend 310P style. Each AI
    Core holds both Cube and Vector units; extra vector-only cores may exist.
    """

    SEPARATED = "separated"
    COUPLED = "coupled"


class ChipConfig(BaseModel):
    """A chip preset. Validated by pydantic; an invalid field raises
    ``pydantic.ValidationError`` naming it.

    Load/save with :meth:`from_file` / :meth:`to_file` (``.json``, ``.yaml``/``.yml``).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    name: str = Field(description="Preset name, e.g. 'ascend910b2'")
    description: str = ""
    architecture: Architecture = Architecture.SEPARATED

    # ---- cores ------------------------------------------------------------
    aic_count: int = Field(gt=0, le=MAX_CORES, description="AI Cores with a Cube unit (AIC)")
    aiv_count: int = Field(ge=0, le=MAX_CORES, description="Vector cores (AIV)")
    clock_hz: float = Field(**CLOCK_HZ, description="AI Core clock in Hz")

    # ---- compute rates ------------------------------------------------------
    cube_fp16_macs_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                          description="fp16/bf16 MACs per cycle per AIC (16x16x16=4096)")
    cube_int8_macs_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                          description="int8 MACs per cycle per AIC (16x32x16=8192)")
    cube_fp32_macs_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                          description="fp32 MACs per cycle per AIC (cubeMathType KEEP_DTYPE)")
    cube_hf32_macs_per_cycle: int = Field(0, ge=0, le=MAX_PER_CYCLE,
                                          description="HF32 MACs per cycle per AIC (cubeMathType "
                                          "ALLOW_FP32_DOWN_PRECISION / USE_HF32); 0 = half the fp16 rate [A]")
    vector_bytes_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                        description="Vector unit: bytes of operand per cycle (one 256 B repeat)")
    vector_repeat_bytes: int = Field(256, gt=0, le=MAX_GRANULE_BYTES,
                                     description="Bytes one vector repeat processes (8 x 32 B blocks) [AC]")
    vector_max_repeats: int = Field(255, gt=0, le=65535,
                                    description="Most repeats one vector instruction can issue [AC]")
    vector_issue_ns: float = Field(10.0, **LATENCY_NS,
                                   description="Fixed cost of one vector instruction (issue and pipeline fill), ns [A]")
    scalar_ns_per_tile: float = Field(**LATENCY_NS, description="Scalar overhead charged once per tile per stage "
                                                                "(ns): loop, address and queue bookkeeping")

    # ---- on-chip buffers (per core) ----------------------------------------
    ub_bytes: int = Field(gt=0, le=MAX_BUFFER_BYTES, description="Unified Buffer per AIV (or per coupled AI Core)")
    l1_bytes: int = Field(gt=0, le=MAX_BUFFER_BYTES, description="L1 buffer per AIC")
    l0a_bytes: int = Field(gt=0, le=MAX_BUFFER_BYTES)
    l0b_bytes: int = Field(gt=0, le=MAX_BUFFER_BYTES)
    l0c_bytes: int = Field(gt=0, le=MAX_BUFFER_BYTES)
    bias_table_bytes: int = Field(ge=0, le=MAX_BUFFER_BYTES)

    # ---- on-chip data movers (per core) ------------------------------------
    mte2_bytes_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                      description="Peak MTE2 (GM->L1/UB) bytes per cycle per core")
    mte1_bytes_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                      description="MTE1 (L1->L0A/L0B) bytes per cycle")
    mte3_bytes_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                      description="MTE3 (UB->GM) bytes per cycle")
    fixpipe_bytes_per_cycle: int = Field(gt=0, le=MAX_PER_CYCLE,
                                         description="FixPipe (L0C->GM) bytes per cycle")
    dma_latency_ns: float = Field(**LATENCY_NS, description="Fixed latency of one GM transfer (DMA instruction), ns")
    gm_burst_bytes: int = Field(32, gt=0, le=MAX_GRANULE_BYTES,
                                description="GM transfer granularity: each contiguous run is rounded "
                                            "up to a multiple of this (DataCopy moves 32 B blocks) [AC]")

    # ---- memory system -----------------------------------------------------
    l2_bytes: int = Field(gt=0, le=MAX_MEMORY_BYTES)
    l2_bandwidth_bytes_per_ns: float = Field(**BANDWIDTH, description="L2 bandwidth (GB/s == bytes/ns)")
    hbm_bytes: int = Field(gt=0, le=MAX_MEMORY_BYTES)
    l2_cross_kernel_reuse: bool = Field(True, description="Keep L2 state across kernels by GM address "
                                                          "(npu_sim.hardware.l2.GmL2); False = every kernel "
                                                          "starts with a cold L2 [A]")
    hbm_bandwidth_bytes_per_ns: float = Field(**BANDWIDTH, description="HBM bandwidth shared by all cores (GB/s)")

    # ---- platform-config rates (per core, bytes per cycle; 0 = not given) ---
    ddr_bytes_per_cycle: float = Field(0.0, ge=0, le=MAX_PER_CYCLE,
                                       description="Sustained GM (DDR/HBM) request rate per AI Core, bytes/cycle "
                                                   "(ini [AICoreMemoryRates] ddr_rate); 0 = no per-core limit")
    vector_ddr_bytes_per_cycle: float = Field(0.0, ge=0, le=MAX_PER_CYCLE,
                                              description="Sustained GM rate per vector-only core, bytes/cycle at "
                                                          "vector_clock_hz (310P3 ini [VectorCoreMemoryRates])")
    l2_read_bytes_per_cycle: float = Field(0.0, ge=0, le=MAX_PER_CYCLE,
                                           description="L2 read rate per AI Core, bytes/cycle (ini l2_read_rate)")
    l2_write_bytes_per_cycle: float = Field(0.0, ge=0, le=MAX_PER_CYCLE,
                                            description="L2 write rate per AI Core, bytes/cycle (ini l2_write_rate)")
    l1_to_l0a_bytes_per_cycle: int = Field(0, ge=0, le=MAX_PER_CYCLE,
                                           description="L1->L0A rate, bytes/cycle (ini l1_to_l0_a_rate); recorded")
    l1_to_l0b_bytes_per_cycle: int = Field(0, ge=0, le=MAX_PER_CYCLE,
                                           description="L1->L0B rate, bytes/cycle (ini l1_to_l0_b_rate); recorded")
    vector_clock_hz: float = Field(0.0, ge=0, le=1e11,
                                   description="Vector-only core clock (ini vec_freq), Hz; 0 = clock_hz")

    # ---- efficiency parameters (1.0 = the formulas as documented; fitted by npu-sim calibrate) ----
    hbm_efficiency: float = Field(1.0, gt=0, le=16.0, description="Share of the sustained HBM rate reached [A/fit]")
    cube_efficiency: float = Field(1.0, gt=0, le=16.0, description="Share of the Cube rate reached [A/fit]")
    vector_efficiency: float = Field(1.0, gt=0, le=16.0, description="Share of the Vector rate reached [A/fit]")

    # ---- host side ---------------------------------------------------------
    host_link_bandwidth_bytes_per_ns: float = Field(**BANDWIDTH, description="Host<->device link (GB/s)")
    host_link_latency_ns: float = Field(**LATENCY_NS)
    kernel_launch_ns: float = Field(**LATENCY_NS, description="Stream task start to first block dispatch (ns)")
    block_dispatch_ns: float = Field(**LATENCY_NS, description="Per-block dispatch latency onto a core (ns)")

    # ---- alignment ---------------------------------------------------------
    ub_align_bytes: int = 32
    l1_align_bytes: int = 32
    l0ab_align_bytes: int = 512
    l0c_align_bytes: int = 64
    malloc_align_bytes: int = 64
    malloc_round_bytes: int = 32

    @field_validator(*ALIGN_FIELDS)
    @classmethod
    def _power_of_two(cls, v: int, info) -> int:
        if v <= 0 or v & (v - 1):
            raise ValueError(f"{info.field_name} must be a positive power of two (bytes), got {v}")
        if info.field_name == "malloc_align_bytes" and v < 32:
            raise ValueError(f"malloc_align_bytes must be at least 32: aclCreateTensor needs 32-byte aligned "
                             f"device addresses, got {v}")
        return v

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, v, info):
        """``aic_count: true`` is not 1: a bool is refused where a number is expected."""
        field = cls.model_fields.get(info.field_name)
        if isinstance(v, bool) and field is not None and field.annotation in (int, float):
            raise ValueError(f"{info.field_name} must be a number, got the boolean {v}")
        return v

    @model_validator(mode="after")
    def _check(self) -> "ChipConfig":
        if self.architecture is Architecture.SEPARATED and self.aiv_count == 0:
            raise ValueError("aiv_count: a separated-architecture chip needs vector cores (AIV)")
        if self.architecture is Architecture.SEPARATED and self.aiv_count != 2 * self.aic_count:
            # Atlas A2 (910B) AI Core: one AIC with two AIVs ("1:2", CANN Ascend C architecture
            # overview); every separated preset follows it
            raise ValueError(f"aiv_count: a separated-architecture chip pairs each AIC with 2 AIVs (1:2), so "
                             f"aiv_count must be 2 x aic_count = {2 * self.aic_count}, got {self.aiv_count}")
        if self.architecture is Architecture.COUPLED and self.aiv_count > self.aic_count:
            # coupled (310P): the AI Cores hold cube + vector; the standalone vector cores are fewer
            raise ValueError(f"aiv_count: on a coupled-architecture chip each AI Core has its own vector unit; "
                             f"the standalone vector cores ({self.aiv_count}) cannot outnumber the AI Cores "
                             f"({self.aic_count})")
        return self

    # ---- derived figures ---------------------------------------------------
    @property
    def ns_per_cycle(self) -> float:
        """Length of one AI Core clock cycle in ns."""
        return 1e9 / self.clock_hz

    @property
    def vector_core_count(self) -> int:
        """Cores a vector kernel can use: AIVs, plus AI Cores on a coupled chip."""
        if self.architecture is Architecture.COUPLED:
            return self.aic_count + self.aiv_count
        return self.aiv_count

    def cube_macs_per_cycle(self, dtype: str) -> int:
        """Cube MACs per cycle per AIC for a cube input dtype name: "float16"/"bfloat16"
        (16x16x16), "int8" (16x32x16), "hf32" (fp32 under cubeMathType 1 or 3),
        anything else at the fp32 rate."""
        if dtype in ("float16", "bfloat16"):
            return self.cube_fp16_macs_per_cycle
        if dtype == "int8":
            return self.cube_int8_macs_per_cycle
        if dtype == "hf32":
            return self.cube_hf32_macs_per_cycle or max(1, self.cube_fp16_macs_per_cycle // 2)
        return self.cube_fp32_macs_per_cycle

    def peak_flops(self, dtype: str = "float16") -> float:
        """Peak Cube FLOP/s for ``dtype`` (2 FLOPs per MAC) over all AICs."""
        return 2.0 * self.cube_macs_per_cycle(dtype) * self.aic_count * self.clock_hz

    @property
    def peak_hbm_bytes_per_s(self) -> float:
        """HBM bandwidth in bytes/s (``hbm_bandwidth_bytes_per_ns`` x 1e9)."""
        return self.hbm_bandwidth_bytes_per_ns * 1e9

    # ---- persistence -------------------------------------------------------
    @classmethod
    def from_file(cls, path: str | Path) -> "ChipConfig":
        """Load a config from ``.json`` or ``.yaml``. Raises ``pydantic.ValidationError``
        (a ``ValueError``) for invalid fields or a document that is not a mapping,
        ``ValueError`` naming the path for an unknown suffix or a YAML/JSON syntax
        error, ``OSError`` if the file cannot be read."""
        path = Path(path)
        if path.suffix not in (".yaml", ".yml", ".json"):
            raise ValueError(f"{path}: chip config must be .json or .yaml, not {path.suffix!r}")
        text = path.read_text()
        import yaml   # only for chip files: PyYAML costs ~40 ms of every import of npu_sim
        try:
            data = yaml.safe_load(text) if path.suffix != ".json" else json.loads(text)
        except yaml.YAMLError as e:
            raise ValueError(f"{path}: not valid YAML: {e}") from None
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not valid JSON: {e}") from None
        return cls.model_validate(data)

    def to_file(self, path: str | Path) -> None:
        """Write this config as ``.json`` or ``.yaml`` (by suffix)."""
        path = Path(path)
        data = self.model_dump(mode="json")
        if path.suffix in (".yaml", ".yml"):
            import yaml
            path.write_text(yaml.safe_dump(data, sort_keys=False))
        elif path.suffix == ".json":
            path.write_text(json.dumps(data, indent=2))
        else:
            raise ValueError(f"{path}: chip config must be .json or .yaml, not {path.suffix!r}")


def _bounds() -> dict[str, tuple[float, float]]:
    """``{field: (lower, upper)}`` for every field with an upper bound (inclusive;
    a strict ``gt`` lower bound is reported as its value)."""
    out = {}
    for name, f in ChipConfig.model_fields.items():
        lo = hi = None
        for m in f.metadata:
            for attr in ("ge", "gt"):
                if getattr(m, attr, None) is not None:
                    lo = getattr(m, attr)
            if getattr(m, "le", None) is not None:
                hi = m.le
        if hi is not None:
            out[name] = (lo if lo is not None else float("-inf"), hi)
    return out


#: sanity bounds of each bounded field, from the field definitions (module docstring)
BOUNDS: dict[str, tuple[float, float]] = _bounds()
