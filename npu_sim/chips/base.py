"""``ChipConfig``: every hardware figure the simulator uses, with its unit in its name.

Units: bytes, Hz, ns, and bandwidths in bytes per ns (numerically equal to GB/s).
Each preset module documents where each figure comes from (``../shared/DESIGN.md``
section 4 collects the sources: the CANN platform config files, the Ascend C docs,
or "assumption" where no public figure exists).
"""
from __future__ import annotations

import json
from enum import Enum
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator


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

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(description="Preset name, e.g. 'ascend910b2'")
    description: str = ""
    architecture: Architecture = Architecture.SEPARATED

    # ---- cores ------------------------------------------------------------
    aic_count: int = Field(gt=0, description="AI Cores with a Cube unit (AIC)")
    aiv_count: int = Field(ge=0, description="Vector cores (AIV)")
    clock_hz: float = Field(gt=0, description="AI Core clock in Hz")

    # ---- compute rates ------------------------------------------------------
    cube_fp16_macs_per_cycle: int = Field(gt=0, description="fp16/bf16 MACs per cycle per AIC (16x16x16=4096)")
    cube_int8_macs_per_cycle: int = Field(gt=0, description="int8 MACs per cycle per AIC (16x32x16=8192)")
    cube_fp32_macs_per_cycle: int = Field(gt=0, description="fp32 MACs per cycle per AIC (cubeMathType KEEP_DTYPE)")
    cube_hf32_macs_per_cycle: int = Field(0, ge=0, description="HF32 MACs per cycle per AIC (cubeMathType "
                                          "ALLOW_FP32_DOWN_PRECISION / USE_HF32); 0 = half the fp16 rate [A]")
    vector_bytes_per_cycle: int = Field(gt=0, description="Vector unit: bytes of operand per cycle (one 256 B repeat)")
    vector_repeat_bytes: int = Field(256, gt=0, description="Bytes one vector repeat processes (8 x 32 B blocks) [AC]")
    vector_max_repeats: int = Field(255, gt=0, description="Most repeats one vector instruction can issue [AC]")
    vector_issue_ns: float = Field(10.0, ge=0, description="Fixed cost of one vector instruction (issue and "
                                                            "pipeline fill), ns [A]")
    scalar_ns_per_tile: float = Field(ge=0, description="Scalar overhead charged once per tile per stage (ns): "
                                                        "loop, address and queue bookkeeping")

    # ---- on-chip buffers (per core) ----------------------------------------
    ub_bytes: int = Field(gt=0, description="Unified Buffer per AIV (or per coupled AI Core)")
    l1_bytes: int = Field(gt=0, description="L1 buffer per AIC")
    l0a_bytes: int = Field(gt=0)
    l0b_bytes: int = Field(gt=0)
    l0c_bytes: int = Field(gt=0)
    bias_table_bytes: int = Field(ge=0)

    # ---- on-chip data movers (per core) ------------------------------------
    mte2_bytes_per_cycle: int = Field(gt=0, description="Peak MTE2 (GM->L1/UB) bytes per cycle per core")
    mte1_bytes_per_cycle: int = Field(gt=0, description="MTE1 (L1->L0A/L0B) bytes per cycle")
    mte3_bytes_per_cycle: int = Field(gt=0, description="MTE3 (UB->GM) bytes per cycle")
    fixpipe_bytes_per_cycle: int = Field(gt=0, description="FixPipe (L0C->GM) bytes per cycle")
    dma_latency_ns: float = Field(ge=0, description="Fixed latency of one GM transfer (DMA instruction), ns")
    gm_burst_bytes: int = Field(32, gt=0, description="GM transfer granularity: each contiguous run is rounded "
                                                      "up to a multiple of this (DataCopy moves 32 B blocks) [AC]")

    # ---- memory system -----------------------------------------------------
    l2_bytes: int = Field(gt=0)
    l2_bandwidth_bytes_per_ns: float = Field(gt=0, description="L2 bandwidth (GB/s == bytes/ns)")
    hbm_bytes: int = Field(gt=0)
    hbm_bandwidth_bytes_per_ns: float = Field(gt=0, description="HBM bandwidth shared by all cores (GB/s)")

    # ---- host side ---------------------------------------------------------
    host_link_bandwidth_bytes_per_ns: float = Field(gt=0, description="Host<->device link (GB/s)")
    host_link_latency_ns: float = Field(ge=0)
    kernel_launch_ns: float = Field(ge=0, description="Stream task start to first block dispatch (ns)")
    block_dispatch_ns: float = Field(ge=0, description="Per-block dispatch latency onto a core (ns)")

    # ---- alignment ---------------------------------------------------------
    ub_align_bytes: int = 32
    l1_align_bytes: int = 32
    l0ab_align_bytes: int = 512
    l0c_align_bytes: int = 64
    malloc_align_bytes: int = 64
    malloc_round_bytes: int = 32

    @model_validator(mode="after")
    def _check(self) -> "ChipConfig":
        if self.architecture is Architecture.SEPARATED and self.aiv_count == 0:
            raise ValueError("aiv_count: a separated-architecture chip needs vector cores (AIV)")
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
        for invalid fields and ``ValueError`` for an unknown suffix."""
        path = Path(path)
        text = path.read_text()
        if path.suffix in (".yaml", ".yml"):
            data = yaml.safe_load(text)
        elif path.suffix == ".json":
            data = json.loads(text)
        else:
            raise ValueError(f"{path}: chip config must be .json or .yaml, not {path.suffix!r}")
        return cls.model_validate(data)

    def to_file(self, path: str | Path) -> None:
        """Write this config as ``.json`` or ``.yaml`` (by suffix)."""
        path = Path(path)
        data = self.model_dump(mode="json")
        if path.suffix in (".yaml", ".yml"):
            path.write_text(yaml.safe_dump(data, sort_keys=False))
        elif path.suffix == ".json":
            path.write_text(json.dumps(data, indent=2))
        else:
            raise ValueError(f"{path}: chip config must be .json or .yaml, not {path.suffix!r}")
