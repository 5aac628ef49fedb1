"""Named chip presets and where each figure comes from.

Sources (see ``../shared/DESIGN.md`` section 4):
  [PC]  CANN platform config file for the chip, ``data/platform_config/<SoC>.ini`` of a
        CANN install (``Ascend910B2.ini`` etc.), cited as ``file [section] field``.
        No CANN install is available here; the figures were checked against
        third-party quotes of those files found by code search (see [Q] below).
  [AC]  Ascend C programming guide (buffer alignment, vector repeat width)
  [310] third-party quote of the Ascend310P3 platform config; Atlas 300I Pro datasheet
  [MG]  CANN migration guide (910B2 HBM 1.6 TB/s)
  [Q]   what code search confirmed: a quote of ``Ascend910B1.ini`` giving
        ai_core_cnt=24, vector_core_cnt=48, cube_freq=1850, memory_size 64 GB,
        l2_size=201326592, [AICoreMemoryRates] ddr_rate=32, l2_read_rate=110,
        l2_write_rate=86, l1_to_l0_a_rate=512, ub_to_l2_rate=64; quotes of
        ``Ascend910B4.ini`` giving ai_core_cnt=20, vector_core_cnt=40,
        memory_size=34359738368, [AICoreSpec] cube_freq=1500, ddr_rate=32, l2_size 96 MB;
        and a note that ``Ascend910B3.ini`` has cube_freq=1800 and a 192 MB L2.
        Not confirmed by search (taken from the issue that asked for them, which cites
        the ini files): 910B2's own rate fields (assumed equal to 910B1's, the same
        die), l1_to_l0_b_rate=256, and every 310P3 figure (cube_freq 1060, vec_freq
        1000, memory 24,000,000,000 B, ddr_rate 17 / vector ddr_rate 9).
  [A]   assumption: no public figure found; chosen to be plausible and labelled here

Figure by figure for ``ascend910b2`` (the default):
  aic_count 24, aiv_count 48 .............. [PC] Ascend910B2.ini [SoCInfo] ai_core_cnt, vector_core_cnt
  clock_hz 1.8e9 ........................... [PC] [AICoreSpec] cube_freq=1800 / msprof "Rated Freq"
  cube_fp16_macs_per_cycle 4096 ............ [PC] [AICoreSpec] cube_m/n/k_size=16
  cube_int8_macs_per_cycle 8192 ............ [PC] [DtypeMKN] DT_INT8=16,32,16 (Default=16,16,16); [Q]: code
                                             search finds that section quoted from Ascend910B1.ini and
                                             Ascend910B4.ini; 910B2's assumed the same (one die)
  cube_fp32_macs_per_cycle 1024 ............ [A] a quarter of the fp16 rate (fp32 KEEP_DTYPE); no ini field
                                             gives an fp32 cube shape
  cube_hf32_macs_per_cycle 2048 ............ [A] half the fp16 rate (HF32: cubeMathType 1 / 3), as TF32
                                             is on other accelerators; no public Ascend figure
  vector_bytes_per_cycle 256 ............... [AC] one 256 B repeat (8 x 32 B blocks) per cycle, [A] issue rate
  vector_repeat_bytes 256, max repeats 255 . [AC] (repeatTimes is an 8-bit field)
  vector_issue_ns 10 ....................... [A] per vector instruction (issue + pipeline fill); not public
  gm_burst_bytes 32 ........................ [AC] DataCopy moves whole 32 B blocks
  ub/l1/l0a/l0b/l0c/bias table ............. [PC] [AICoreSpec] ub_size, l1_size, l0_a/b/c_size: 192 KiB /
                                             512 KiB / 64 / 64 / 128 KiB; bias table 1 KiB [A]
  l2_bytes 192 MiB ......................... [PC] [SoCInfo] l2_size=201326592
  hbm_bytes 64 GiB ......................... [PC] [SoCInfo] memory_size
  hbm_bandwidth 1600 GB/s .................. [MG] peak; the sustained rate is derived (hardware/bandwidth.py)
  ddr_bytes_per_cycle 32 ................... [PC] [AICoreMemoryRates] ddr_rate (per AI Core)
  l2_read/write_bytes_per_cycle 110 / 86 ... [PC] [AICoreMemoryRates] l2_read_rate, l2_write_rate
  l1_to_l0a/l0b_bytes_per_cycle 512 / 256 .. [PC] [AICoreMemoryRates] l1_to_l0_a_rate, l1_to_l0_b_rate
  l2_bandwidth 5000 GB/s ................... [A]
  mte2/mte3 128 B/cycle, fixpipe 128 ....... [A] no ini field names the MTE2/MTE3 engine rate
  mte1 256 B/cycle ......................... [PC] the slower L1->L0 port (l1_to_l0_b_rate); the MTE1 stage
                                             carries A and B together at one rate
  dma_latency_ns 100 ....................... [A] makes transfers under ~16 KB inefficient, as [AC] says
  host link 25 GB/s, 2000 ns ............... [A] PCIe 4.0 x16 effective; no Ascend figure found
  kernel_launch_ns 3000, block_dispatch 100  [A] no public per-launch figure found
  scalar_ns_per_tile 20 .................... [A]
  hbm/cube/vector_efficiency 1.0 ........... [A] the formulas as documented; ``npu-sim calibrate`` fits them
"""
from __future__ import annotations

import os

from .base import Architecture, ChipConfig

KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

_COMMON = dict(
    cube_fp16_macs_per_cycle=4096,
    cube_int8_macs_per_cycle=8192,
    cube_fp32_macs_per_cycle=1024,
    cube_hf32_macs_per_cycle=2048,
    vector_bytes_per_cycle=256,
    vector_repeat_bytes=256,
    vector_max_repeats=255,
    vector_issue_ns=10.0,
    gm_burst_bytes=32,
    scalar_ns_per_tile=20.0,
    bias_table_bytes=1 * KiB,
    mte2_bytes_per_cycle=128,
    mte1_bytes_per_cycle=256,
    mte3_bytes_per_cycle=128,
    fixpipe_bytes_per_cycle=128,
    dma_latency_ns=100.0,
    host_link_bandwidth_bytes_per_ns=25.0,
    host_link_latency_ns=2000.0,
    kernel_launch_ns=3000.0,
    block_dispatch_ns=100.0,
)

ASCEND910B2 = ChipConfig(
    name="ascend910b2",
    description="Ascend 910B2: 24 AIC + 48 AIV, separated architecture (default)",
    architecture=Architecture.SEPARATED,
    aic_count=24, aiv_count=48, clock_hz=1.8e9,
    ub_bytes=192 * KiB, l1_bytes=512 * KiB, l0a_bytes=64 * KiB, l0b_bytes=64 * KiB, l0c_bytes=128 * KiB,
    l2_bytes=192 * MiB, l2_bandwidth_bytes_per_ns=5000.0,
    hbm_bytes=64 * GiB, hbm_bandwidth_bytes_per_ns=1600.0,
    ddr_bytes_per_cycle=32, l2_read_bytes_per_cycle=110, l2_write_bytes_per_cycle=86,
    l1_to_l0a_bytes_per_cycle=512, l1_to_l0b_bytes_per_cycle=256,
    **_COMMON,
)

# 910B4: Ascend910B4.ini [SoCInfo] ai_core_cnt=20, vector_core_cnt=40,
# memory_size=34359738368 (32 GiB), l2_size (96 MiB); [AICoreSpec] cube_freq=1500 (1.5 GHz:
# 20 x 4096 x 2 x 1.5e9 = 245.8 TFLOP/s fp16) [PC, Q]; [AICoreMemoryRates] ddr_rate=32 [Q];
# HBM bandwidth 800 GB/s [A]: no public figure found for this part.
ASCEND910B4 = ASCEND910B2.model_copy(update=dict(
    name="ascend910b4",
    description="Ascend 910B4: 20 AIC + 40 AIV at 1.5 GHz, 32 GiB HBM, 96 MiB L2",
    aic_count=20, aiv_count=40, clock_hz=1.5e9,
    l2_bytes=96 * MiB, hbm_bytes=32 * GiB, hbm_bandwidth_bytes_per_ns=800.0,
))

# 910B3: Ascend910B3.ini [SoCInfo] ai_core_cnt=20, vector_core_cnt=40, memory_size 64 GiB,
# l2_size 192 MiB; [AICoreSpec] cube_freq=1800 [PC; Q confirms the clock and the L2].
# Memory rates as 910B2 [A: the same die]; HBM 1.6 TB/s [A, as 910B2].
ASCEND910B3 = ASCEND910B2.model_copy(update=dict(
    name="ascend910b3",
    description="Ascend 910B3: 20 AIC + 40 AIV at 1.8 GHz, 64 GiB HBM, 192 MiB L2",
    aic_count=20, aiv_count=40, clock_hz=1.8e9,
))

# 910B1: Ascend910B1.ini [SoCInfo] ai_core_cnt=24, vector_core_cnt=48, memory_size 64 GiB,
# l2_size=201326592; [AICoreSpec] cube_freq=1850; [AICoreMemoryRates] as 910B2 [PC, Q].
# HBM 1.6 TB/s [A, as 910B2].
ASCEND910B1 = ASCEND910B2.model_copy(update=dict(
    name="ascend910b1",
    description="Ascend 910B1: 24 AIC + 48 AIV at 1.85 GHz, 64 GiB HBM, 192 MiB L2",
    clock_hz=1.85e9,
))

# 310P3: coupled architecture, 8 AI Cores + 7 vector cores, UB 256 KiB, L1 1 MiB,
# L0C 256 KiB, L2 16 MiB [310]. Ascend310P3.ini [PC, not confirmed by search -- see [Q]]:
# [AICoreSpec] cube_freq=1060 (AI Cores at 1.06 GHz; was 1.08 GHz from a datasheet quote),
# [VectorCoreSpec] vec_freq=1000 (vector cores at 1.0 GHz: recorded in vector_clock_hz and
# used for their GM rate; their pipes are still timed at clock_hz, a known limit),
# [SoCInfo] memory_size=24000000000 (decimal, not 24 GiB), [AICoreMemoryRates] ddr_rate=17
# per AI Core and [VectorCoreMemoryRates] ddr_rate=9 per vector core: 8 x 17 x 1.06 +
# 7 x 9 x 1.0 = 207.2 GB/s in total, which the 204.8 GB/s LPDDR4X peak [310 datasheet] caps.
ASCEND310P3 = ChipConfig(
    name="ascend310p3",
    description="Ascend 310P3: 8 AI Cores (coupled Cube+Vector) at 1.06 GHz + 7 vector cores at 1.0 GHz",
    architecture=Architecture.COUPLED,
    aic_count=8, aiv_count=7, clock_hz=1.06e9, vector_clock_hz=1.0e9,
    ub_bytes=256 * KiB, l1_bytes=1 * MiB, l0a_bytes=64 * KiB, l0b_bytes=64 * KiB, l0c_bytes=256 * KiB,
    l2_bytes=16 * MiB, l2_bandwidth_bytes_per_ns=1000.0,
    hbm_bytes=24_000_000_000, hbm_bandwidth_bytes_per_ns=204.8,
    ddr_bytes_per_cycle=17, vector_ddr_bytes_per_cycle=9,
    **_COMMON,
)

# tiny: for tests. Two AI Cores and small buffers so that even small shapes tile
# into many tiles with edge tiles. Every figure is an assumption.
TINY = ChipConfig(
    name="tiny",
    description="Test chip: 2 AIC + 4 AIV, small buffers (all figures assumed)",
    architecture=Architecture.SEPARATED,
    aic_count=2, aiv_count=4, clock_hz=1.0e9,
    ub_bytes=16 * KiB, l1_bytes=64 * KiB, l0a_bytes=16 * KiB, l0b_bytes=16 * KiB, l0c_bytes=32 * KiB,
    l2_bytes=1 * MiB, l2_bandwidth_bytes_per_ns=200.0,
    hbm_bytes=256 * MiB, hbm_bandwidth_bytes_per_ns=50.0,
    **_COMMON,
)

PRESETS: dict[str, ChipConfig] = {c.name: c for c in (ASCEND910B2, ASCEND910B4, ASCEND910B3, ASCEND910B1,
                                                       ASCEND310P3, TINY)}
DEFAULT_CHIP = "ascend910b2"


def get_chip(name_or_path: str | os.PathLike | ChipConfig) -> ChipConfig:
    """Return a preset by name, a config loaded from a ``.json``/``.yaml`` path (str or
    ``os.PathLike``), or the config itself. Raises ``KeyError`` with the known names
    for an unknown name, ``TypeError`` for anything that is not a str, a path or a
    ChipConfig, and whatever :meth:`ChipConfig.from_file` raises for a bad file
    (``OSError``, ``ValueError``, ``pydantic.ValidationError``)."""
    if isinstance(name_or_path, ChipConfig):
        return name_or_path
    if isinstance(name_or_path, os.PathLike):
        return ChipConfig.from_file(name_or_path)
    if not isinstance(name_or_path, str):
        raise TypeError(f"chip must be a preset name ({', '.join(PRESETS)}), a .json/.yaml path or a ChipConfig, "
                        f"got {type(name_or_path).__name__} {name_or_path!r}")
    if name_or_path in PRESETS:
        return PRESETS[name_or_path]
    if name_or_path.endswith((".json", ".yaml", ".yml")):
        return ChipConfig.from_file(name_or_path)
    raise KeyError(f"unknown chip {name_or_path!r}; presets: {', '.join(PRESETS)} (or a .json/.yaml path)")
