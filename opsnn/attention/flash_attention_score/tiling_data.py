"""FlashAttentionScore tiling struct and keys: the one definition both halves read
(ops-transformer's ``op_kernel/*_tiling_data.h`` and ``*_tiling_key.h``), plus the two
facts both halves need: the core type of a chip and the KV blocks a causal query block
visits."""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from npu_sim import Architecture, ChipConfig
from npu_sim.program import CoreType

from ...base.tiling_base import ceil_div

#: starting tile edges before shrinking to fit the buffers [assumption: typical FA
#: base blocks of 128 query rows x 128..256 key rows]
START_S_Q = 128
START_S_KV = 256
FRAC = 16  #: cube fractal edge
STAT_BYTES = 32  #: one fp32 row statistic padded to 8 floats (CANN's [B, N, Sq, 8] softmax outputs)


class FlashAttentionScoreTilingKey(IntEnum):
    """Kernel variant: which masking path the tile program takes."""

    DENSE = 0      #: no attenMask
    MASKED = 1     #: explicit attenMask (sparseMode 0/1)
    CAUSAL = 2     #: sparseMode 2/3: causal mask generated in-kernel, fully masked blocks skipped


@dataclass(frozen=True)
class FlashAttentionScoreTilingData:
    """Tiling struct (cf. ops-transformer FlashAttentionScoreTilingData).

    Problem: batch, head_num (Nq), kv_head_num, s_q, s_kv, d (Q/K head dim), d_v,
    itemsize (bytes per input element), has_pse, mask_kind (key).
    Split: base_s_q x base_s_kv tile edges; d_l0 head-dim elements per L0 load;
    q_blocks, kv_blocks per head; tasks = batch * head_num * q_blocks; tiles = KV
    blocks visited over all tasks (causal skipping applied); block_dim.
    Buffers (bytes per AIC / per AIV): l1, l0a, l0b, l0c, ub (per AIV, ``ub_rows``
    query rows each). workspace_per_block: S (fp32) + P + O partial (fp32), double-buffered.
    """

    batch: int
    head_num: int
    kv_head_num: int
    s_q: int
    s_kv: int
    d: int
    d_v: int
    itemsize: int
    has_pse: bool
    mask_kind: int
    base_s_q: int
    base_s_kv: int
    d_l0: int
    q_blocks: int
    kv_blocks: int
    tasks: int
    tiles: int
    block_dim: int
    l1_bytes: int
    l0a_bytes: int
    l0b_bytes: int
    l0c_bytes: int
    ub_bytes: int
    ub_rows: int
    workspace_per_block: int
    workspace_bytes: int


def mix_core_type(chip: ChipConfig) -> tuple[CoreType, bool]:
    """(core type, is_mix): CoreType.MIX (groups of one AIC + two AIVs) when npu_sim has
    it and the chip is separated; else AIC (a coupled AI Core has both units; ``kernel.py``'s
    module docstring)."""
    mix = getattr(CoreType, "MIX", None)
    if mix is not None and chip.architecture == Architecture.SEPARATED:
        return mix, True
    return CoreType.AIC, False


def visible_kv_blocks(qi: int, base_s_q: int, s_q: int, base_s_kv: int, kv_blocks: int, offset: int | None) -> int:
    """KV blocks a query block visits: all, or (causal, ``offset`` = Skv - Sq or 0) those
    with at least one unmasked position; at least one so every row gets written."""
    if offset is None:
        return kv_blocks
    last_row = min((qi + 1) * base_s_q, s_q) - 1
    last_col = last_row + offset
    return max(1, min(kv_blocks, ceil_div(last_col + 1, base_s_kv) if last_col >= 0 else 1))
